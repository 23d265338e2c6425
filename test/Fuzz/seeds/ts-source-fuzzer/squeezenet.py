class SqueezeNet(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  num_classes : int
  features : __torch__.torch.nn.modules.container.___torch_mangle_157.Sequential
  classifier : __torch__.torch.nn.modules.container.___torch_mangle_160.Sequential
  def forward(self: __torch__.torchvision.models.squeezenet.SqueezeNet,
    x: Tensor) -> Tensor:
    features = self.features
    x0 = (features).forward(x, )
    classifier = self.classifier
    x1 = (classifier).forward(x0, )
    return torch.flatten(x1, 1)
class Fire(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  inplanes : int
  squeeze : __torch__.torch.nn.modules.conv.___torch_mangle_134.Conv2d
  squeeze_activation : __torch__.torch.nn.modules.activation.ReLU
  expand1x1 : __torch__.torch.nn.modules.conv.___torch_mangle_135.Conv2d
  expand1x1_activation : __torch__.torch.nn.modules.activation.ReLU
  expand3x3 : __torch__.torch.nn.modules.conv.___torch_mangle_136.Conv2d
  expand3x3_activation : __torch__.torch.nn.modules.activation.ReLU
  def forward(self: __torch__.torchvision.models.squeezenet.Fire,
    x: Tensor) -> Tensor:
    squeeze_activation = self.squeeze_activation
    squeeze = self.squeeze
    x2 = (squeeze_activation).forward((squeeze).forward(x, ), )
    expand1x1_activation = self.expand1x1_activation
    expand1x1 = self.expand1x1
    _0 = (expand1x1_activation).forward((expand1x1).forward(x2, ), )
    expand3x3_activation = self.expand3x3_activation
    expand3x3 = self.expand3x3
    _1 = (expand3x3_activation).forward((expand3x3).forward(x2, ), )
    return torch.cat([_0, _1], 1)
