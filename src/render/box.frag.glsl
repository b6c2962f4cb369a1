// Faint lines, fogged like the boids (lighting.glsl comes first).

in float v_distance;

uniform vec4 u_color;  // rgb, opacity

void main() {
    o_color = premultiplied(u_color.rgb, u_color.a * (1.0 - 0.7 * fogAt(v_distance)));
}
