#ifndef NANASHI_MOVE_ORDER_H
#define NANASHI_MOVE_ORDER_H

#include <stdint.h>

/// The index of the first of the highest of `scores[from]` to `scores[count - 1]` (`from` below
/// `count`): the move a selection sort tries next. Wide registers where the processor has them.
int nanashi_best_index(const int32_t *scores, int from, int count);

#endif
