#version 300 es
// An obstacle: the unit sphere moved and scaled by one uniform.
precision highp float;

layout(location = 0) in vec3 a_vertex;  // on the unit sphere, so also its normal

uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform vec4 u_sphere;  // centre xyz, radius

out vec3 v_normal;
out float v_distance;

void main() {
    vec3 world = u_sphere.xyz + a_vertex * u_sphere.w;
    gl_Position = u_view_proj * vec4(world, 1.0);
    v_normal = a_vertex;
    v_distance = distance(world, u_eye);
}
