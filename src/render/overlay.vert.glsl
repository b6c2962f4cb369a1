#version 300 es
// The inspector's drawing: discs, the blind zone, links and arrows, coloured per vertex.
precision highp float;

layout(location = 0) in vec3 a_position;  // GL coordinates
layout(location = 1) in vec4 a_color;     // rgb, opacity

uniform mat4 u_view_proj;

out vec4 v_color;

void main() {
    gl_Position = u_view_proj * vec4(a_position, 1.0);
    v_color = a_color;
}
