#version 300 es
// Lines: the world's edges (the unit cube scaled by the world size) or the leaders' loop
// (already in world coordinates, scale 1).
precision highp float;

layout(location = 0) in vec3 a_point;

uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform vec3 u_scale;

out float v_distance;

void main() {
    vec3 world = a_point * u_scale;
    gl_Position = u_view_proj * vec4(world, 1.0);
    v_distance = distance(world, u_eye);
}
