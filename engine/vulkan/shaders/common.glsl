// SPDX-License-Identifier: MIT
// Shared by every 1-D shader: the parameter words (binding 0) and the flat invocation index. Dispatches wider
// than 65535 workgroups spill into y (see linearGroups in vk_lowering.cpp).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Params { int p[]; };

uint gid()
{
    return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
}

float pf(int i)
{
    return intBitsToFloat(p[i]);
}
