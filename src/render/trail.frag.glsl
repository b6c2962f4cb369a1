#version 300 es
// Trails fade with age (premultiplied alpha from the vertex shader).
precision mediump float;

in vec4 v_color;

out vec4 o_color;

void main() {
    o_color = v_color;
}
