"""Matrix-product FLOPs of whatever runs inside the context, forward and
backward, counted from the shapes of the aten ops that reach the
dispatcher: 2·m·k·n per product, convolutions as the product they equal,
nothing for element-wise work, the convention of src/bench/flops.ts."""
from math import prod

import torch
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten


def _conv(weight, out_shape) -> int:
    """2 · output positions · (in-channels · window) · out-channels."""
    positions = out_shape[0] * prod(out_shape[2:])
    return 2 * positions * prod(weight.shape[1:]) * weight.shape[0]


def op_flops(func, args, out) -> int:
    packet = func.overloadpacket
    if packet in (aten.mm, aten.bmm):
        a, b = args[0], args[1]
        return 2 * prod(a.shape) * b.shape[-1]
    if packet in (aten.addmm, aten.baddbmm):
        a, b = args[1], args[2]
        return 2 * prod(a.shape) * b.shape[-1]
    if packet is aten.convolution:
        return _conv(args[1], out.shape)
    if packet is aten.convolution_backward:
        grad_out, weight, mask = args[0], args[2], args[10]
        # The input's gradient and the weight's each cost one product the size of the forward one.
        return _conv(weight, grad_out.shape) * (int(mask[0]) + int(mask[1]))
    return 0


class FlopCounter(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.flops = 0
        self.products = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        f = op_flops(func, args, out)
        if f:
            self.flops += f
            self.products += 1
        return out
