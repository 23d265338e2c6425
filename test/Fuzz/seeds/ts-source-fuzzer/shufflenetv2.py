class ShuffleNetV2(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  _stage_out_channels : List[int]
  conv1 : __torch__.torch.nn.modules.container.___torch_mangle_258.Sequential
  maxpool : __torch__.torch.nn.modules.pooling.MaxPool2d
  stage2 : __torch__.torch.nn.modules.container.___torch_mangle_267.Sequential
  stage3 : __torch__.torch.nn.modules.container.___torch_mangle_277.Sequential
  stage4 : __torch__.torch.nn.modules.container.___torch_mangle_286.Sequential
  conv5 : __torch__.torch.nn.modules.container.___torch_mangle_288.Sequential
  fc : __torch__.torch.nn.modules.linear.___torch_mangle_130.Linear
  def forward(self: __torch__.torchvision.models.shufflenetv2.ShuffleNetV2,
    x: Tensor) -> Tensor:
    return (self)._forward_impl(x, )
  def _forward_impl(self: __torch__.torchvision.models.shufflenetv2.ShuffleNetV2,
    x: Tensor) -> Tensor:
    conv1 = self.conv1
    x0 = (conv1).forward(x, )
    maxpool = self.maxpool
    x1 = (maxpool).forward(x0, )
    stage2 = self.stage2
    x2 = (stage2).forward(x1, )
    stage3 = self.stage3
    x3 = (stage3).forward(x2, )
    stage4 = self.stage4
    x4 = (stage4).forward(x3, )
    conv5 = self.conv5
    x5 = (conv5).forward(x4, )
    x6 = torch.mean(x5, [2, 3])
    fc = self.fc
    return (fc).forward(x6, )
class InvertedResidual(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  stride : int
  branch1 : __torch__.torch.nn.modules.container.___torch_mangle_261.Sequential
  branch2 : __torch__.torch.nn.modules.container.___torch_mangle_262.Sequential
  def forward(self: __torch__.torchvision.models.shufflenetv2.InvertedResidual,
    x: Tensor) -> Tensor:
    _0 = __torch__.torchvision.models.shufflenetv2.channel_shuffle
    stride = self.stride
    if torch.eq(stride, 1):
      x1, x2, = torch.chunk(x, 2, 1)
      branch2 = self.branch2
      out0 = torch.cat([x1, (branch2).forward(x2, )], 1)
      out = out0
    else:
      branch1 = self.branch1
      _1 = (branch1).forward(x, )
      branch20 = self.branch2
      out1 = torch.cat([_1, (branch20).forward(x, )], 1)
      out = out1
    return _0(out, 2, )
def channel_shuffle(x: Tensor,
    groups: int) -> Tensor:
  batchsize, num_channels, height, width, = torch.size(x)
  channels_per_group = torch.floordiv(num_channels, groups)
  _2 = [batchsize, groups, channels_per_group, height, width]
  x7 = torch.view(x, _2)
  x8 = torch.contiguous(torch.transpose(x7, 1, 2))
  x9 = torch.view(x8, [batchsize, -1, height, width])
  return x9
