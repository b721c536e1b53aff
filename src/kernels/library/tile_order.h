// The order in which work-groups take C's tiles (SWIZZLE, a parameter of the
// kernels that include this). Work-groups start in id order, dimension 0
// fastest: along a whole column of tiles, which reads all of A for one panel
// of B. With swizzle > 1 they are renumbered so that consecutive ones walk
// down bands of `swizzle` tile rows, column by column: the tiles in flight
// then share fewer panels of A and B in the L2.
#ifndef GK_TILE_ORDER_H
#define GK_TILE_ORDER_H

static inline void tile_of_group(const int swizzle, int* tile_m, int* tile_n)
{
    if (swizzle <= 1) {
        *tile_m = get_group_id(0);
        *tile_n = get_group_id(1);
        return;
    }
    const int groups_m = get_num_groups(0), groups_n = get_num_groups(1);
    const int group = get_group_id(1) * groups_m + get_group_id(0);
    const int band = group / (swizzle * groups_n), first_row = band * swizzle;
    const int rows = min(swizzle, groups_m - first_row), in_band = group - first_row * groups_n;
    *tile_m = first_row + in_band % rows;
    *tile_n = in_band / rows;
}

#endif
