#version 300 es
// The start of every fragment shader (`gl_util::fragment_shader!` puts it before the
// shader's own file): the version line, which must come first, the precision, the output,
// and the scene's one light and one fog, so that cones, stones and lines are lit and
// fogged alike. GLSL ES 3.00 has no #include.
precision mediump float;

uniform vec2 u_fog;  // distance where fading starts, distance where it is strongest

out vec4 o_color;

const vec3 SUN = vec3(0.42, 0.82, 0.39);  // normalised, from above and in front
const vec3 SKY = vec3(0.62, 0.70, 0.85);
const vec3 GROUND = vec3(0.20, 0.18, 0.22);

// Hemisphere ambient (sky above, ground below) + one sun, in the given shares.
vec3 lit(vec3 albedo, vec3 normal, float ambientShare, float sunShare) {
    vec3 n = normalize(normal);
    float diffuse = max(dot(n, SUN), 0.0);
    vec3 ambient = mix(GROUND, SKY, 0.5 + 0.5 * n.y);
    return albedo * (ambientShare * ambient + sunShare * diffuse);
}

// Depth fog: 0 up to u_fog.x from the eye, 1 from u_fog.y on.
float fogAt(float distance) {
    return smoothstep(u_fog.x, u_fog.y, distance);
}

// Premultiplied alpha, as the canvas is: what fades, fades into the page's background.
vec4 premultiplied(vec3 rgb, float alpha) {
    return vec4(rgb * alpha, alpha);
}

// The shader's own file follows; its lines are numbered from 1 in error logs.
#line 1
