#version 300 es
// Edges of the world cube: the unit cube's edges scaled by the world size.
precision highp float;

layout(location = 0) in vec3 a_corner;

uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform float u_world;

out float v_distance;

void main() {
    vec3 world = a_corner * u_world;
    gl_Position = u_view_proj * vec4(world, 1.0);
    v_distance = distance(world, u_eye);
}
