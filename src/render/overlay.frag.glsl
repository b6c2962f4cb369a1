#version 300 es
// Premultiplied, as the canvas is: translucent discs tint what lies behind them.
precision mediump float;

in vec4 v_color;

out vec4 o_color;

void main() {
    o_color = vec4(v_color.rgb * v_color.a, v_color.a);
}
