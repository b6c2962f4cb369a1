// Obstacles: matte stone, lit and fogged like the boids (lighting.glsl comes first).

in vec3 v_normal;
in float v_distance;

const vec3 STONE = vec3(0.56, 0.55, 0.60);

void main() {
    vec3 color = lit(STONE, v_normal, 0.5, 0.7);
    o_color = premultiplied(color, 1.0 - 0.6 * fogAt(v_distance));
}
