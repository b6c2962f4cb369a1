#version 300 es
// Lit cone: hemisphere ambient + one sun, faded into the background with distance.
precision mediump float;

in vec3 v_normal;
in vec3 v_color;
in float v_distance;

uniform vec2 u_fog;  // distance where fading starts, distance where it is strongest

out vec4 o_color;

const vec3 SUN = vec3(0.42, 0.82, 0.39);  // normalised, from above and in front
const vec3 SKY = vec3(0.62, 0.70, 0.85);
const vec3 GROUND = vec3(0.20, 0.18, 0.22);

void main() {
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, SUN), 0.0);
    vec3 ambient = mix(GROUND, SKY, 0.5 + 0.5 * n.y);
    vec3 color = v_color * (0.55 * ambient + 0.75 * diffuse);
    // Depth fog: far boids fade toward the page's background (premultiplied alpha).
    float fog = smoothstep(u_fog.x, u_fog.y, v_distance);
    float alpha = 1.0 - 0.78 * fog;
    o_color = vec4(color * alpha, alpha);
}
