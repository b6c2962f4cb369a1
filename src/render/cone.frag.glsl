// Lit cone, faded into the background with distance (lighting.glsl comes first).

in vec3 v_normal;
in vec3 v_color;
in float v_distance;
flat in vec2 v_look;  // the fog's fade; 1 for the projector look's light

void main() {
    vec3 color = lit(v_color, v_normal, 0.55, 0.75);
    if (v_look.y > 0.5) {
        // The projector look: lit nearly flat and a little toward white, and dark hues (blue,
        // violet) lifted toward white until as light as 0.4 of white, so that every cone's
        // shaded side stays well clear of the black sky: a blue cone mixed 12 % toward white
        // stood at about 3:1 against it (WCAG), the lifted one at about 4:1.
        float sun = max(dot(normalize(v_normal), SUN), 0.0);
        vec3 flat_lit = min(v_color * (0.9 + 0.3 * sun), vec3(1.0));
        float light = dot(flat_lit, vec3(0.2126, 0.7152, 0.0722));
        color = mix(flat_lit, vec3(1.0), max(0.12, (0.4 - light) / max(1.0 - light, 1e-3)));
    }
    o_color = premultiplied(color, 1.0 - v_look.x * fogAt(v_distance));
}
