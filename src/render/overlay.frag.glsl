// Translucent discs tint what lies behind them (lighting.glsl comes first).

in vec4 v_color;

void main() {
    o_color = premultiplied(v_color.rgb, v_color.a);
}
