// Trails fade with age (premultiplied alpha from the vertex shader; lighting.glsl comes
// first).

in vec4 v_color;

void main() {
    o_color = v_color;
}
