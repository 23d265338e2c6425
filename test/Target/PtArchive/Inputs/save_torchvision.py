"""Saves torchvision classification models with torch.jit.save.

    python3 save_torchvision.py OUT_DIR [--only NAME[,NAME...]]
                                        [--exclude NAME[,NAME...]]
                                        [--forms FORM[,FORM...]]

For each model below (random weights: `weights=None`, `torch.manual_seed(0)`,
`perturb_constant_tensors`,
`.eval()`) writes up to three archives:

  OUT_DIR/<model>/scripted.pt  torch.jit.script(m)
  OUT_DIR/<model>/frozen.pt    torch.jit.freeze(torch.jit.script(m))
  OUT_DIR/<model>/traced.pt    torch.jit.trace(m, torch.randn(1, 3, 224, 224))

and OUT_DIR/pytorch.json: for every model and form, either the archive's
size and the seconds it took to build, script/freeze/trace and save it, or
why it was not saved: PyTorch itself cannot script, freeze or trace it (the
exception PyTorch raised, which is not ours to import), or the form is left
out on purpose (`SKIPPED_FORMS`, with the reason). Prints one line per model
(`resnet18: scripted frozen traced`, a form PyTorch cannot make as
`-traced(PyTorch cannot trace)`, one left out as `-frozen(skipped)`), then
`saved: N archives, M MB` and, on its own line, the time it took.

The models are one to three of each family of torchvision 0.14's 80
classification builders (torchvision.models.list_models(
module=torchvision.models)); the others of a family (resnet101/152,
vgg13/16/19 and the _bn ones, densenet161/169/201, efficientnet_b1..b7,
efficientnet_v2_m/l, the other regnets, mnasnet0_75/1_0/1_3,
shufflenet_v2_x1_5/2_0, convnext_small/base/large, swin_s/b, swin_v2_s/b,
vit_b_32/l_16/l_32/h_14, resnext101_*, wide_resnet101_2) run the same code
with other sizes and would only add gigabytes (`FAMILY_MEMBERS_LEFT_OUT`).
The script stops if list_models names a builder that is in neither list.
PyTorch 1.13 scripts, freezes and traces all of them.

Tracing runs the model once on a 1x3x224x224 input (vit_b_16 and maxvit_t
accept no other size) with `check_trace=False`: the check traces it twice
more and runs it again, which took 6 times as long (33 s for
convnext_tiny on a busy core) and only warns.
"""
import argparse
import json
import os
import sys
import time
import warnings

import torch
import torchvision

# (name, keyword arguments of the builder besides weights=None). googlenet
# and inception_v3 without their auxiliary classifiers (in eval mode they
# are not used, and scripting then returns only the logits) and without
# their scipy-based truncated-normal initialisation.
MODELS = [
    ("alexnet", {}),
    ("convnext_tiny", {}),
    ("densenet121", {}),
    ("efficientnet_b0", {}),
    ("efficientnet_v2_s", {}),
    ("googlenet", {"aux_logits": False, "init_weights": False}),
    ("inception_v3", {"aux_logits": False, "init_weights": False}),
    ("maxvit_t", {}),
    ("mnasnet0_5", {}),
    ("mobilenet_v2", {}),
    ("mobilenet_v3_large", {}),
    ("mobilenet_v3_small", {}),
    ("regnet_x_400mf", {}),
    ("regnet_y_400mf", {}),
    ("resnet18", {}),
    ("resnet34", {}),
    ("resnet50", {}),
    ("resnext50_32x4d", {}),
    ("shufflenet_v2_x0_5", {}),
    ("shufflenet_v2_x1_0", {}),
    ("squeezenet1_0", {}),
    ("squeezenet1_1", {}),
    ("swin_t", {}),
    ("swin_v2_t", {}),
    ("vgg11", {}),
    ("vit_b_16", {}),
    ("wide_resnet50_2", {}),
]

FORMS = ["scripted", "frozen", "traced"]

# Forms left out on purpose, so that a run writes about 4 GB and takes
# about two minutes on two busy cores (three forms of everything: 4.7 GB,
# 125 s, and as long again to import). The four largest models (230 to
# 530 MB an archive) are saved in one form each: alexnet and vgg11 have
# the graphs of squeezenet's layers (convolutions, pooling, linear), so
# their traced form, the plainest, is enough; wide_resnet50_2 runs
# resnet50's code with wider layers; vit_b_16 keeps its scripted form,
# whose multi-head attention is the longest control flow of all the
# models. Three models share the code of another one saved in every form,
# and keep their scripted form (the one that goes through the most code).
SKIPPED_FORMS = {
    ("alexnet", "scripted"): "large (233 MB); the graph of its traced form",
    ("alexnet", "frozen"): "large (233 MB); the graph of its traced form",
    ("vgg11", "scripted"): "large (507 MB); the graph of its traced form",
    ("vgg11", "frozen"): "large (507 MB); the graph of its traced form",
    ("wide_resnet50_2", "frozen"): "large (263 MB); resnet50's code",
    ("wide_resnet50_2", "traced"): "large (263 MB); resnet50's code",
    ("vit_b_16", "frozen"): "large (330 MB); its scripted form's code",
    ("vit_b_16", "traced"): "large (330 MB); its scripted form's code",
    ("resnet34", "frozen"): "resnet18's code, more blocks",
    ("resnet34", "traced"): "resnet18's code, more blocks",
    ("resnext50_32x4d", "frozen"): "resnet50's code, grouped convolutions",
    ("resnext50_32x4d", "traced"): "resnet50's code, grouped convolutions",
    ("swin_v2_t", "frozen"): "swin_t's code but for the attention",
    ("swin_v2_t", "traced"): "swin_t's code but for the attention",
}

FAMILY_MEMBERS_LEFT_OUT = [
    "convnext_base", "convnext_large", "convnext_small", "densenet161",
    "densenet169", "densenet201", "efficientnet_b1", "efficientnet_b2",
    "efficientnet_b3", "efficientnet_b4", "efficientnet_b5",
    "efficientnet_b6", "efficientnet_b7", "efficientnet_v2_l",
    "efficientnet_v2_m", "mnasnet0_75", "mnasnet1_0", "mnasnet1_3",
    "regnet_x_16gf", "regnet_x_1_6gf", "regnet_x_32gf", "regnet_x_3_2gf",
    "regnet_x_800mf", "regnet_x_8gf", "regnet_y_128gf", "regnet_y_16gf",
    "regnet_y_1_6gf", "regnet_y_32gf", "regnet_y_3_2gf", "regnet_y_800mf",
    "regnet_y_8gf", "resnet101", "resnet152", "resnext101_32x8d",
    "resnext101_64x4d", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0",
    "swin_b", "swin_s", "swin_v2_b", "swin_v2_s", "vgg11_bn", "vgg13",
    "vgg13_bn", "vgg16", "vgg16_bn", "vgg19", "vgg19_bn", "vit_b_32",
    "vit_h_14", "vit_l_16", "vit_l_32", "wide_resnet101_2",
]

VERBS = {"scripted": "script", "frozen": "freeze", "traced": "trace"}


def make(model, form, scripted):
    """The ScriptModule of `model` (eval mode) in `form`. `scripted` holds
    torch.jit.script(model) once made: freezing starts from it (it freezes
    a copy), instead of scripting the model again."""
    if form in ("scripted", "frozen") and "module" not in scripted:
        scripted["module"] = torch.jit.script(model)
    if form == "scripted":
        return scripted["module"]
    if form == "frozen":
        return torch.jit.freeze(scripted["module"])
    torch.manual_seed(1)
    example = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        return torch.jit.trace(model, example, check_trace=False)


def first_line(exc):
    lines = [l.strip() for l in str(exc).strip().splitlines() if l.strip()]
    return "%s: %s" % (type(exc).__name__, lines[0] if lines else "")


def perturb_constant_tensors(model):
    """Adds noise to every floating parameter and buffer whose elements are
    all equal: torchvision initialises norms to 1 and 0, running statistics
    to 0 and 1, layer scales to a constant and some classifier heads (vit's)
    to zeros, so that a layer could be dropped, or a head read as zeros,
    without changing the logits a test compares. Running variances stay
    positive."""
    with torch.no_grad():
        for key, t in list(model.state_dict(keep_vars=True).items()):
            if not t.is_floating_point() or t.numel() < 2 or \
                    bool((t != t.reshape(-1)[0]).any()):
                continue
            noise = 0.1 * torch.randn(t.shape)
            if key.endswith("running_var"):
                t.copy_(t + noise.abs())
            else:
                t.add_(noise)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--only", default="",
                        help="comma-separated model names (default: all)")
    parser.add_argument("--exclude", default="",
                        help="comma-separated model names to leave out")
    parser.add_argument("--forms", default=",".join(FORMS),
                        help="comma-separated forms (default: all three)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    only = set(filter(None, args.only.split(",")))
    exclude = set(filter(None, args.exclude.split(",")))
    forms = [f for f in FORMS if f in args.forms.split(",")]
    unknown = (only | exclude) - {name for name, _ in MODELS}
    if unknown:
        sys.exit("unknown models: " + ", ".join(sorted(unknown)))

    builders = set(torchvision.models.list_models(module=torchvision.models))
    listed = {name for name, _ in MODELS} | set(FAMILY_MEMBERS_LEFT_OUT)
    if builders != listed:
        sys.exit("torchvision's builders changed: new %s, gone %s" % (
            sorted(builders - listed), sorted(listed - builders)))
    print("builders: %d, %d of them saved" % (len(builders), len(MODELS)))

    start = time.time()
    report = {"torch": torch.__version__,
              "torchvision": torchvision.__version__,
              "archives": {}, "build_seconds": {}, "pytorch_cannot": {},
              "skipped": {},
              "family_members_left_out": FAMILY_MEMBERS_LEFT_OUT}
    saved = total_bytes = 0
    for name, kwargs in MODELS:
        if (only and name not in only) or name in exclude:
            continue
        os.makedirs(os.path.join(args.out, name), exist_ok=True)
        torch.manual_seed(0)
        t = time.time()
        model = getattr(torchvision.models, name)(weights=None,
                                                  **kwargs).eval()
        perturb_constant_tensors(model)
        report["build_seconds"][name] = round(time.time() - t, 2)
        words = []
        scripted = {}
        for form in forms:
            key = "%s/%s" % (name, form)
            if (name, form) in SKIPPED_FORMS:
                report["skipped"][key] = SKIPPED_FORMS[(name, form)]
                words.append("-%s(skipped)" % form)
                continue
            path = os.path.join(args.out, name, form + ".pt")
            t = time.time()
            try:
                module = make(model, form, scripted)
            except Exception as e:  # PyTorch's own limitation
                report["pytorch_cannot"][key] = first_line(e)
                words.append("-%s(PyTorch cannot %s)" % (form, VERBS[form]))
                continue
            torch.jit.save(module, path)
            size = os.path.getsize(path)
            report["archives"][key + ".pt"] = {
                "bytes": size, "seconds": round(time.time() - t, 2)}
            saved += 1
            total_bytes += size
            words.append(form)
        print("%s: %s" % (name, " ".join(words)), flush=True)

    with open(os.path.join(args.out, "pytorch.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    print("saved: %d archives, %d MB" % (saved, total_bytes >> 20))
    print("saving took %.0f s" % (time.time() - start))


if __name__ == "__main__":
    main()
