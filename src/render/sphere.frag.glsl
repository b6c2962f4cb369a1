#version 300 es
// Obstacles: matte stone, lit and fogged like the boids.
precision mediump float;

in vec3 v_normal;
in float v_distance;

uniform vec2 u_fog;

out vec4 o_color;

const vec3 SUN = vec3(0.42, 0.82, 0.39);
const vec3 SKY = vec3(0.62, 0.70, 0.85);
const vec3 GROUND = vec3(0.20, 0.18, 0.22);
const vec3 STONE = vec3(0.56, 0.55, 0.60);

void main() {
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, SUN), 0.0);
    vec3 ambient = mix(GROUND, SKY, 0.5 + 0.5 * n.y);
    vec3 color = STONE * (0.5 * ambient + 0.7 * diffuse);
    float fog = smoothstep(u_fog.x, u_fog.y, v_distance);
    float alpha = 1.0 - 0.6 * fog;
    o_color = vec4(color * alpha, alpha);
}
