#version 300 es
// Faint lines, fogged like the boids.
precision mediump float;

in float v_distance;

uniform vec2 u_fog;
uniform vec4 u_color;  // rgb, opacity

out vec4 o_color;

void main() {
    float fog = smoothstep(u_fog.x, u_fog.y, v_distance);
    float alpha = u_color.a * (1.0 - 0.7 * fog);
    o_color = vec4(u_color.rgb * alpha, alpha);
}
