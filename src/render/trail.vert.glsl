#version 300 es
// Trails: every boid's last SAMPLES positions, read from the ring texture (trails.rs), as
// SAMPLES - 1 line segments per boid in one draw with no vertex buffer. A segment is drawn
// only where both ends belong to the boid in the slot now and it is no jump across a
// wrapped edge; else both its ends go outside the clip volume.
precision highp float;
precision highp sampler2D;

uniform sampler2D u_ring;  // RGBA32F: xyz (GL), the sample at which the slot's boid arrived
uniform mat4 u_view_proj;
uniform int u_head;        // band of the newest sample
uniform int u_filled;      // samples that may be drawn, newest first
uniform int u_rows;        // texture rows per sample
uniform int u_only;        // draw this slot alone (the selected boid's trail), or -1: all
uniform int u_selected;    // the selected boid's slot (drawn bright), or -1
uniform float u_jump;      // longer segments are jumps across an edge

out vec4 v_color;

const int SAMPLES = 32;
const int WIDTH = 2048;
const int SEGMENTS = SAMPLES - 1;

vec4 sampleAt(int slot, int age) {
    int band = (u_head - age + SAMPLES) % SAMPLES;
    return texelFetch(u_ring, ivec2(slot % WIDTH, band * u_rows + slot / WIDTH), 0);
}

void main() {
    int perSlot = 2 * SEGMENTS;
    int slot = u_only >= 0 ? u_only : gl_VertexID / perSlot;
    int k = gl_VertexID % perSlot;
    int segment = k / 2;
    int end = k % 2;
    int age = segment + end;
    vec4 here = sampleAt(slot, age);
    vec4 there = sampleAt(slot, end == 0 ? age + 1 : age - 1);
    float owner = sampleAt(slot, 0).w;
    bool drawn = segment + 1 < u_filled && owner >= 0.0 && here.w == owner && there.w == owner &&
        distance(here.xyz, there.xyz) < u_jump;
    gl_Position = drawn ? u_view_proj * vec4(here.xyz, 1.0) : vec4(2.0, 2.0, 2.0, 1.0);
    float fade = 1.0 - float(age) / float(SEGMENTS);
    bool selected = slot == u_selected;
    float alpha = selected ? 0.95 * fade : 0.4 * fade * fade;
    vec3 color = selected ? vec3(1.0, 0.93, 0.55) : vec3(0.72, 0.82, 1.0);
    v_color = vec4(color * alpha, alpha);
}
