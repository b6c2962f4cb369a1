#version 300 es
// Faint wireframe, fogged like the boids.
precision mediump float;

in float v_distance;

uniform vec2 u_fog;

out vec4 o_color;

const vec3 LINE = vec3(0.62, 0.76, 1.0);
const float OPACITY = 0.28;

void main() {
    float fog = smoothstep(u_fog.x, u_fog.y, v_distance);
    float alpha = OPACITY * (1.0 - 0.7 * fog);
    o_color = vec4(LINE * alpha, alpha);
}
