// Lit cone, faded into the background with distance (lighting.glsl comes first).

in vec3 v_normal;
in vec3 v_color;
in float v_distance;
flat in vec2 v_look;  // the fog's fade; 1 for the projector look's light

void main() {
    vec3 color = lit(v_color, v_normal, 0.55, 0.75);
    if (v_look.y > 0.5) {
        // The projector look: lit nearly flat and a little toward white, so that even a
        // blue cone's shaded side stays well clear of the black sky.
        float sun = max(dot(normalize(v_normal), SUN), 0.0);
        color = mix(min(v_color * (0.9 + 0.3 * sun), vec3(1.0)), vec3(1.0), 0.12);
    }
    o_color = premultiplied(color, 1.0 - v_look.x * fogAt(v_distance));
}
