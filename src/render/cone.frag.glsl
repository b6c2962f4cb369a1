// Lit cone, faded into the background with distance (lighting.glsl comes first).

in vec3 v_normal;
in vec3 v_color;
in float v_distance;

void main() {
    vec3 color = lit(v_color, v_normal, 0.55, 0.75);
    o_color = premultiplied(color, 1.0 - 0.78 * fogAt(v_distance));
}
