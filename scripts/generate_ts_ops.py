#!/usr/bin/env python3
"""Generates the schema-described ops of the `ts` dialect from PyTorch's own
operator registry.

    /usr/bin/python3 scripts/generate_ts_ops.py \
        > include/tsmlir/Dialect/TorchScript/IR/GeneratedOps.td
    /usr/bin/python3 scripts/generate_ts_ops.py --test \
        > test/Dialect/TorchScript/generated-ops.mlir
    /usr/bin/python3 scripts/generate_ts_ops.py --signatures \
        > lib/Dialect/TorchScript/IR/GeneratedSignatures.inc
    /usr/bin/python3 scripts/generate_ts_ops.py --all-schemas \
        > lib/Target/PtArchive/GeneratedSchemas.inc

Needs PyTorch (Debian: python3-torch). The output is committed, so building
tsmlir does not need PyTorch. Each op is one overload of one operator schema;
`aten::add.Tensor` becomes `ts.aten.add.Tensor` (C++ class AtenAddTensorOp).

What is hand-chosen lives in the tables below: which overloads to generate
(OPS), and which ops have a folder, a canonicalizer or a custom verifier
(implemented in lib/Dialect/TorchScript/IR/).
"""

import re
import sys

import torch

# Every overload to generate, as "name.overload" ("name" for the default
# overload). Grouped as in docs/dialects/TorchScript.md.
OPS = {
    "elementwise": """
        aten::add.Tensor aten::add.Scalar aten::sub.Tensor aten::sub.Scalar
        aten::mul.Tensor aten::mul.Scalar aten::div.Tensor aten::div.Scalar
        aten::div.Tensor_mode aten::div.Scalar_mode aten::rsub.Tensor
        aten::rsub.Scalar aten::floor_divide aten::remainder.Tensor
        aten::remainder.Scalar aten::neg aten::pow.Tensor_Tensor
        aten::pow.Tensor_Scalar aten::pow.Scalar aten::rsqrt aten::sqrt
        aten::exp aten::expm1 aten::log aten::log1p aten::log2 aten::tanh
        aten::sigmoid aten::relu aten::gelu aten::silu aten::erf aten::sin
        aten::cos aten::abs aten::sign aten::reciprocal aten::floor aten::ceil
        aten::round aten::round.decimals aten::clamp aten::clamp.Tensor aten::clamp_min
        aten::clamp_min.Tensor aten::clamp_max aten::clamp_max.Tensor
        aten::minimum aten::maximum aten::max.other
        aten::min.other aten::where.self aten::where.ScalarSelf
        aten::where.ScalarOther aten::where.Scalar aten::lerp.Scalar
        aten::lerp.Tensor aten::hardswish aten::hardsigmoid aten::hardtanh
        aten::leaky_relu aten::elu aten::softplus aten::masked_fill.Scalar
        aten::masked_fill.Tensor aten::triu aten::tril
        aten::eq.Tensor aten::eq.Scalar aten::ne.Tensor aten::ne.Scalar
        aten::lt.Tensor aten::lt.Scalar aten::le.Tensor aten::le.Scalar
        aten::gt.Tensor aten::gt.Scalar aten::ge.Tensor aten::ge.Scalar
        aten::logical_and aten::logical_or aten::logical_xor aten::logical_not
        aten::bitwise_not aten::__and__.Tensor aten::__or__.Tensor
        aten::__xor__.Tensor aten::type_as aten::to.dtype aten::to.device
        aten::to.other aten::to.dtype_layout aten::to.prim_Device
        aten::to.prim_dtype aten::detach aten::clone aten::zeros_like
        aten::ones_like aten::full_like aten::zeros aten::ones aten::full
        aten::arange aten::arange.start aten::arange.start_step aten::linspace
        aten::logspace aten::tensor aten::tensor.float aten::tensor.int
        aten::tensor.bool aten::scalar_tensor
    """,
    "reduction": """
        aten::sum aten::sum.dim_IntList aten::mean aten::mean.dim aten::amax
        aten::amin aten::max aten::min aten::max.dim aten::min.dim aten::var
        aten::var.dim aten::var.correction aten::std aten::std.dim
        aten::std.correction aten::softmax.int aten::log_softmax.int
        aten::_softmax aten::_log_softmax aten::layer_norm
        aten::native_layer_norm aten::argmax aten::argmin aten::all aten::any
        aten::prod aten::prod.dim_int aten::all.dim aten::any.dim
        aten::logsumexp aten::cumsum aten::cumprod
    """,
    "shape": """
        aten::view aten::view_as aten::reshape aten::reshape_as aten::permute
        aten::transpose.int aten::t aten::contiguous aten::unsqueeze
        aten::squeeze aten::squeeze.dim aten::expand aten::expand_as
        aten::broadcast_to aten::cat aten::stack aten::slice.Tensor
        aten::slice_scatter aten::select_scatter
        aten::select.int aten::narrow aten::chunk aten::split.Tensor
        aten::unbind.int aten::split_with_sizes aten::split aten::split.sizes
        aten::flatten.using_ints aten::repeat
        aten::index_select aten::gather aten::flip aten::index.Tensor aten::size
        aten::size.int aten::dim aten::numel aten::_size_if_not_equal
        aten::_grad_sum_to_size aten::_infer_size
    """,
    "linalg": """
        aten::mm aten::bmm aten::matmul aten::linear aten::addmm aten::baddbmm
        aten::dot
    """,
    "nn": """
        aten::conv2d aten::conv3d aten::_convolution aten::batch_norm
        aten::_batch_norm_impl_index aten::_batch_norm_impl_index_backward
        aten::max_pool2d aten::max_pool2d_with_indices
        aten::max_pool2d_with_indices_backward aten::avg_pool2d
        aten::max_pool3d aten::max_pool3d_with_indices
        aten::adaptive_avg_pool2d aten::adaptive_max_pool2d aten::dropout
        aten::embedding aten::group_norm
    """,
    # Composite operators --ts-decompose rewrites into the ops above
    # (lib/Dialect/TorchScript/Transforms/Decompose.cpp).
    "composite": """
        aten::lstm.input aten::gru.input aten::rnn_tanh.input
        aten::rnn_relu.input aten::instance_norm aten::var_mean
        aten::var_mean.dim aten::var_mean.correction aten::std_mean
        aten::std_mean.dim aten::std_mean.correction aten::mv aten::outer
        aten::addmv aten::conv2d.padding aten::conv1d aten::conv1d.padding
        aten::conv_transpose1d aten::conv_transpose2d.input aten::max_pool1d
        aten::avg_pool1d aten::adaptive_avg_pool1d
        aten::narrow.Tensor aten::addr aten::addbmm aten::embedding_bag
        aten::embedding_bag.padding_idx aten::_native_multi_head_attention
        aten::_transformer_encoder_layer_fwd aten::max_pool1d_with_indices
        aten::diff aten::tile aten::rot90 aten::glu aten::nansum aten::nanmean
        aten::count_nonzero aten::count_nonzero.dim_IntList
        aten::linalg_vector_norm aten::norm.Scalar aten::norm.ScalarOpt_dim
        aten::dist aten::new_zeros aten::new_ones aten::new_full
        aten::new_empty aten::einsum aten::searchsorted.Tensor
        aten::searchsorted.Scalar aten::cdist aten::max_unpool2d
        aten::swapaxes aten::swapdims aten::movedim.int aten::movedim.intlist
        aten::moveaxis.int aten::moveaxis.intlist aten::fill.Scalar
        aten::fill.Tensor aten::argsort aten::argsort.stable aten::msort
        aten::broadcast_tensors aten::bucketize.Tensor aten::bucketize.Scalar
        aten::isclose aten::im2col aten::unfold aten::combinations
        aten::linalg_vecdot aten::pairwise_distance
        aten::diag aten::diagonal aten::diag_embed aten::diagonal_scatter
        aten::trace aten::unflatten.int aten::tensor_split.sections
        aten::tensor_split.indices aten::take aten::take_along_dim
        aten::meshgrid aten::meshgrid.indexing aten::prelu aten::allclose
        aten::sum_to_size aten::cov aten::corrcoef aten::median
        aten::median.dim aten::nanmedian aten::nanmedian.dim aten::quantile
        aten::quantile.scalar aten::nanquantile aten::nanquantile.scalar
        aten::kthvalue aten::mode aten::histc aten::put aten::special_xlog1py
        aten::special_xlog1py.other_scalar aten::special_xlog1py.self_scalar
        aten::kron aten::cartesian_prod aten::block_diag aten::cross
        aten::linalg_cross aten::aminmax aten::triu_indices
        aten::tril_indices aten::cummax aten::cummin aten::logcumsumexp
        aten::index_fill.int_Scalar aten::index_fill.int_Tensor
        aten::index_copy aten::masked_scatter aten::bilinear
        aten::linalg_norm aten::linalg_matrix_norm
        aten::linalg_matrix_norm.str_ord aten::frobenius_norm.dim
        aten::renorm aten::linalg_norm.ord_str aten::max_unpool3d
        aten::index_reduce aten::segment_reduce aten::histogram.bin_ct
        aten::histogram.bins_tensor
        aten::as_strided aten::as_strided_scatter aten::atleast_1d
        aten::atleast_1d.Sequence aten::atleast_2d aten::atleast_2d.Sequence
        aten::atleast_3d aten::atleast_3d.Sequence aten::ravel
        aten::column_stack aten::vstack aten::hstack aten::dstack
        aten::vsplit.int aten::vsplit.array aten::hsplit.int
        aten::hsplit.array aten::dsplit.int aten::dsplit.array aten::flipud
        aten::fliplr aten::tensordot aten::one_hot aten::isin.Tensor_Tensor
        aten::isin.Tensor_Scalar aten::isin.Scalar_Tensor aten::inner
        aten::vdot aten::positive aten::resolve_neg aten::resolve_conj
        aten::numpy_T aten::mT aten::mH aten::adjoint aten::real aten::conj
        aten::conj_physical aten::isreal aten::angle
        aten::narrow_copy aten::native_batch_norm aten::diagflat
        aten::repeat_interleave.self_int aten::repeat_interleave.self_Tensor
        aten::repeat_interleave.Tensor aten::bincount aten::pdist
        aten::cosine_similarity aten::fft_fftshift aten::fft_ifftshift
        aten::trapz.x aten::trapz.dx aten::trapezoid.x aten::trapezoid.dx
        aten::cumulative_trapezoid.x aten::cumulative_trapezoid.dx aten::equal
        aten::nuclear_norm aten::nuclear_norm.dim aten::gradient.scalarint
        aten::gradient.scalararray aten::gradient.array
        aten::gradient.scalarrayint aten::gradient.scalarrayarray
        aten::gradient.tensorarray aten::gradient.tensorarrayint
        aten::multi_margin_loss aten::multilabel_margin_loss
        aten::upsample_bicubic2d aten::upsample_bicubic2d.vec
        aten::upsample_trilinear3d aten::upsample_trilinear3d.vec
        aten::avg_pool3d aten::adaptive_avg_pool3d aten::adaptive_max_pool3d
        aten::adaptive_max_pool1d aten::conv_transpose3d.input
        aten::empty_like aten::new_empty_strided aten::histogramdd
        aten::histogramdd.int_bins aten::histogramdd.TensorList_bins
        aten::grid_sampler
    """,
    # Ops whose result sizes depend on the values of their operands:
    # --ts-decompose computes each at its largest size and slices it to the
    # run-time count (lib/Dialect/TorchScript/Transforms/DecomposeSelection.cpp).
    "selection": """
        aten::_unique2 aten::unique_dim aten::unique_consecutive
        aten::unique_dim_consecutive aten::masked_select aten::nonzero
        aten::argwhere
    """,
    # Factorizations, solvers and products of matrices --ts-decompose
    # rewrites into the ops above
    # (lib/Dialect/TorchScript/Transforms/DecomposeFactorizations.cpp).
    "factorization": """
        aten::linalg_solve_triangular aten::triangular_solve
        aten::linalg_cholesky aten::linalg_cholesky_ex aten::cholesky
        aten::cholesky_solve aten::cholesky_inverse aten::linalg_lu_factor_ex
        aten::linalg_lu_factor aten::linalg_lu aten::lu_unpack
        aten::_lu_with_info aten::det aten::linalg_det aten::slogdet
        aten::linalg_slogdet aten::logdet aten::linalg_solve
        aten::linalg_solve_ex aten::linalg_lu_solve aten::lu_solve
        aten::linalg_inv aten::linalg_inv_ex aten::inverse
        aten::linalg_matrix_power aten::geqrf aten::linalg_householder_product
        aten::orgqr aten::ormqr aten::linalg_qr aten::qr aten::symeig
        aten::linalg_multi_dot aten::linalg_vander aten::linalg_tensorinv
        aten::linalg_tensorsolve aten::linalg_svd aten::svd
        aten::linalg_svdvals aten::linalg_eigh aten::linalg_eigvalsh
        aten::linalg_matrix_rank aten::linalg_matrix_rank.atol_rtol_float
        aten::linalg_matrix_rank.atol_rtol_tensor
        aten::linalg_matrix_rank.tol_tensor aten::linalg_pinv
        aten::linalg_pinv.atol_rtol_float aten::linalg_pinv.atol_rtol_tensor
        aten::linalg_pinv.rcond_tensor aten::pinverse aten::linalg_cond
        aten::linalg_cond.p_str aten::linalg_lstsq aten::matrix_exp
        aten::linalg_matrix_exp
    """,
    # Loss functions --ts-decompose rewrites into the ops above
    # (lib/Dialect/TorchScript/Transforms/DecomposeLosses.cpp).
    "loss": """
        aten::mse_loss aten::l1_loss aten::smooth_l1_loss aten::huber_loss
        aten::soft_margin_loss aten::hinge_embedding_loss
        aten::margin_ranking_loss aten::binary_cross_entropy
        aten::binary_cross_entropy_with_logits aten::kl_div aten::nll_loss
        aten::nll_loss_nd aten::nll_loss2d aten::cross_entropy_loss
        aten::cosine_embedding_loss aten::triplet_margin_loss
        aten::poisson_nll_loss
    """,
    # Ops that order the elements along a dimension
    # (lib/Conversion/TorchScriptToLinalg/Sort.cpp).
    "sort": """
        aten::sort aten::sort.stable aten::topk
    """,
    # Ops that write elements at indices read from a tensor
    # (lib/Conversion/TorchScriptToLinalg/Scatter.cpp).
    "scatter": """
        aten::scatter.src aten::scatter.value aten::scatter.reduce
        aten::scatter.value_reduce aten::scatter_add aten::scatter_reduce.two
        aten::index_put aten::index_put.hacked_twin aten::index_add
    """,
    # Ops that read each output element at an index computed from its own
    # (lib/Conversion/TorchScriptToLinalg/Resampling.cpp).
    "resampling": """
        aten::pad aten::constant_pad_nd aten::roll aten::pixel_shuffle
        aten::pixel_unshuffle aten::upsample_nearest1d
        aten::upsample_nearest1d.vec aten::upsample_nearest2d
        aten::upsample_nearest2d.vec aten::upsample_linear1d
        aten::upsample_linear1d.vec aten::upsample_bilinear2d
        aten::upsample_bilinear2d.vec aten::upsample_nearest3d
        aten::upsample_nearest3d.vec
    """,
    # The unary and binary math family, activations and predicates
    # (pointwise; their shape and fusion facts are in
    # include/tsmlir/Dialect/TorchScript/IR/PointwiseOps.def).
    "math": """
        aten::atan aten::asin aten::acos aten::tan aten::sinh aten::cosh
        aten::asinh aten::acosh aten::atanh aten::erfc aten::erfinv
        aten::lgamma aten::digamma aten::exp2 aten::log10 aten::sinc
        aten::logit aten::trunc aten::fix aten::frac aten::square aten::sgn
        aten::relu6 aten::deg2rad aten::rad2deg aten::nan_to_num aten::mish
        aten::softshrink aten::hardshrink aten::threshold aten::celu
        aten::selu aten::log_sigmoid aten::isnan aten::isinf aten::isfinite
        aten::signbit aten::isposinf aten::isneginf aten::atan2
        aten::fmod.Tensor aten::fmod.Scalar aten::hypot aten::copysign.Tensor
        aten::copysign.Scalar aten::logaddexp aten::logaddexp2
        aten::bitwise_and.Tensor aten::bitwise_and.Scalar
        aten::bitwise_or.Tensor aten::bitwise_or.Scalar
        aten::bitwise_xor.Tensor aten::bitwise_xor.Scalar
        aten::__and__.Scalar aten::__or__.Scalar aten::__xor__.Scalar
        aten::bitwise_left_shift.Tensor aten::bitwise_left_shift.Tensor_Scalar
        aten::bitwise_right_shift.Tensor
        aten::bitwise_right_shift.Tensor_Scalar aten::__lshift__.Tensor
        aten::__lshift__.Scalar aten::__rshift__.Tensor aten::__rshift__.Scalar
        aten::fmax aten::fmin aten::heaviside aten::gcd aten::lcm
        aten::xlogy.Tensor aten::xlogy.Scalar_Other
        aten::float_power.Tensor_Tensor aten::float_power.Tensor_Scalar
        aten::true_divide.Tensor aten::true_divide.Scalar
        aten::floor_divide.Scalar aten::addcmul aten::addcdiv
        aten::ldexp.Tensor aten::polygamma aten::special_zeta
        aten::special_zeta.other_scalar aten::special_zeta.self_scalar
        aten::mvlgamma aten::nextafter aten::igamma aten::igammac aten::i0
        aten::special_i0e aten::special_i1 aten::special_i1e
        aten::special_ndtr aten::special_ndtri aten::special_log_ndtr aten::special_erfcx
        aten::special_entr aten::frexp.Tensor aten::special_airy_ai
        aten::special_bessel_j0 aten::special_bessel_j1
        aten::special_bessel_y0 aten::special_bessel_y1
        aten::special_modified_bessel_i0 aten::special_modified_bessel_i1
        aten::special_modified_bessel_k0 aten::special_modified_bessel_k1
        aten::special_scaled_modified_bessel_k0
        aten::special_scaled_modified_bessel_k1
        aten::special_spherical_bessel_j0 aten::special_chebyshev_polynomial_t
        aten::special_chebyshev_polynomial_t.n_scalar
        aten::special_chebyshev_polynomial_t.x_scalar
        aten::special_chebyshev_polynomial_u
        aten::special_chebyshev_polynomial_u.n_scalar
        aten::special_chebyshev_polynomial_u.x_scalar
        aten::special_chebyshev_polynomial_v
        aten::special_chebyshev_polynomial_v.n_scalar
        aten::special_chebyshev_polynomial_v.x_scalar
        aten::special_chebyshev_polynomial_w
        aten::special_chebyshev_polynomial_w.n_scalar
        aten::special_chebyshev_polynomial_w.x_scalar
        aten::special_shifted_chebyshev_polynomial_t
        aten::special_shifted_chebyshev_polynomial_t.n_scalar
        aten::special_shifted_chebyshev_polynomial_t.x_scalar
        aten::special_shifted_chebyshev_polynomial_u
        aten::special_shifted_chebyshev_polynomial_u.n_scalar
        aten::special_shifted_chebyshev_polynomial_u.x_scalar
        aten::special_shifted_chebyshev_polynomial_v
        aten::special_shifted_chebyshev_polynomial_v.n_scalar
        aten::special_shifted_chebyshev_polynomial_v.x_scalar
        aten::special_shifted_chebyshev_polynomial_w
        aten::special_shifted_chebyshev_polynomial_w.n_scalar
        aten::special_shifted_chebyshev_polynomial_w.x_scalar
        aten::special_hermite_polynomial_h
        aten::special_hermite_polynomial_h.n_scalar
        aten::special_hermite_polynomial_h.x_scalar
        aten::special_hermite_polynomial_he
        aten::special_hermite_polynomial_he.n_scalar
        aten::special_hermite_polynomial_he.x_scalar
        aten::special_laguerre_polynomial_l
        aten::special_laguerre_polynomial_l.n_scalar
        aten::special_laguerre_polynomial_l.x_scalar
        aten::special_legendre_polynomial_p
        aten::special_legendre_polynomial_p.n_scalar
        aten::special_legendre_polynomial_p.x_scalar
    """,
    # In-place ops without an out-of-place op here. The in-place form of
    # every op above is added by `inplace_variants`.
    "inplace": """
        aten::add_.Tensor aten::add_.Scalar aten::sub_.Tensor aten::sub_.Scalar
        aten::mul_.Tensor aten::mul_.Scalar aten::div_.Tensor aten::div_.Scalar
        aten::relu_ aten::sigmoid_ aten::tanh_ aten::clamp_ aten::hardswish_
        aten::copy_ aten::fill_.Scalar aten::fill_.Tensor aten::zero_
        aten::masked_fill_.Scalar aten::index_put_ aten::_set_item.t
        aten::append.t aten::transpose_ aten::t_ aten::squeeze_
        aten::squeeze_.dim aten::unsqueeze_ aten::swapaxes_ aten::swapdims_
    """,
    "scalar": """
        aten::add.int aten::add.float aten::add.int_float aten::add.float_int
        aten::add aten::add.str aten::add.t aten::sub.int aten::sub.float
        aten::sub aten::mul.int aten::mul.float aten::mul aten::mul.left_t
        aten::div.int aten::div.float aten::div aten::floordiv.int
        aten::floordiv.float aten::__round_to_zero_floordiv.int aten::remainder.int
        aten::remainder.float aten::neg.int aten::neg.float aten::neg.Scalar
        aten::pow.int aten::pow.float aten::pow.int_float aten::pow.float_int
        prim::min.float prim::max.float
        aten::eq.int aten::eq.float aten::eq.bool aten::eq.str aten::eq.device
        aten::eq.int_list aten::ne.int_list aten::eq.float_list
        aten::ne.float_list aten::eq.bool_list aten::ne.bool_list
        aten::eq.str_list aten::ne.str_list
        aten::eq aten::ne.int aten::ne.float aten::ne.bool
        aten::ne.str aten::ne aten::lt.int aten::lt.float aten::lt aten::le.int
        aten::le.float aten::le aten::gt.int aten::gt.float aten::gt
        aten::ge.int aten::ge.float aten::ge aten::__and__.bool
        aten::__or__.bool aten::__xor__.bool aten::__not__ aten::Int.Tensor
        aten::Int.float aten::Int.bool aten::Int.Scalar aten::Float.Tensor
        aten::Float.int aten::Float.bool aten::Float.Scalar aten::Bool.Tensor
        aten::Bool.int aten::Bool.float aten::ScalarImplicit aten::__getitem__.t
        aten::__getitem__.str aten::len.t aten::len.Tensor aten::len.str
        aten::__is__ aten::__isnot__ aten::__contains__.int_list
        aten::__contains__.str_list aten::format
        aten::str aten::list.t aten::warn aten::sqrt.int aten::sqrt.float
        aten::floor.float aten::ceil.float aten::is_autocast_enabled
        aten::is_grad_enabled
        aten::__range_length aten::__derive_index aten::find aten::slice.t
        aten::all.int aten::all.float aten::all.bool aten::any.int
        aten::any.float aten::any.bool aten::any.str aten::copy.t
        aten::sum.int aten::sum.float aten::sum.bool
    """,
    "prim": """
        prim::dtype prim::device prim::layout prim::requires_grad
        prim::is_cuda prim::data prim::NumToTensor.Scalar
        prim::NumToTensor.bool prim::BroadcastSizes prim::AutogradZero
        prim::AutogradAllZero prim::AutogradAllNonZero
        prim::AutogradAnyNonZero prim::AutogradAdd prim::rangelist
        prim::IfThenElse prim::min.int prim::max.int prim::abs.int
        prim::is_nested prim::is_cpu prim::is_sparse prim::is_quantized
        prim::is_meta prim::is_mkldnn aten::is_floating_point aten::is_complex
        aten::is_signed aten::is_contiguous aten::is_scripting
    """,
}

# Ops whose results are random (and must not be merged or removed).
NONDETERMINISTIC = {"aten::dropout"}
# Ops whose in-place form is not generated: detach_ changes autograd
# state, not values.
NO_INPLACE_VARIANT = {"aten::detach"}
# Ops with effects beyond their results, besides in-place ops.
SIDE_EFFECTS = {"aten::warn", "aten::append.t", "aten::_set_item.t"}



def reads_mutable(schema_text):
    """Whether an op reads an object that other ops may mutate in place: a
    tensor, a list (`int[]` included), a dict, or a value of any type."""
    args = schema_text.split("->")[0]
    args = args[args.index("(") + 1:]
    return bool(re.search(r"Tensor|\[\]|Dict|\bAny\b|(^|[(,\s])t\??\s", args))


# Hand-written C++ behind generated declarations.
HAS_FOLDER = set("""
    aten::add.int aten::sub.int aten::mul.int aten::floordiv.int
    aten::remainder.int aten::neg.int aten::add.float aten::sub.float
    aten::mul.float aten::div.float aten::div.int aten::neg.float
    aten::eq.int aten::ne.int aten::lt.int aten::le.int aten::gt.int
    aten::ge.int aten::eq.float aten::ne.float aten::lt.float aten::le.float
    aten::gt.float aten::ge.float aten::eq.bool aten::ne.bool aten::eq.str
    aten::ne.str aten::__and__.bool aten::__or__.bool aten::__xor__.bool
    aten::__not__ aten::Int.float aten::Int.bool aten::Float.int
    aten::Float.bool aten::Bool.int aten::Bool.float aten::len.t
    aten::__getitem__.t aten::size.int aten::size aten::dim aten::numel
    aten::__is__ aten::__isnot__ aten::t prim::dtype prim::device
    prim::min.int prim::max.int aten::contiguous aten::to.dtype
    aten::add.Scalar aten::sub.Scalar aten::mul.Scalar aten::div.Scalar
    aten::pow.Tensor_Scalar aten::dropout aten::type_as aten::view
    aten::reshape aten::expand aten::squeeze.dim aten::transpose.int
    aten::add.Tensor aten::sub.Tensor aten::mul.Tensor aten::div.Tensor
    aten::floor_divide aten::remainder.Tensor aten::rsub.Scalar
    aten::remainder.Scalar aten::floor_divide.Scalar
    aten::neg prim::NumToTensor.Scalar aten::Int.Tensor aten::Float.Tensor
    aten::sqrt.int aten::sqrt.float aten::floor.float aten::ceil.float
    aten::__contains__.int_list
    aten::__contains__.str_list aten::eq.int_list aten::ne.int_list
    aten::eq.float_list aten::ne.float_list aten::eq.bool_list
    aten::ne.bool_list aten::eq.str_list aten::ne.str_list
    prim::is_nested aten::is_autocast_enabled aten::is_grad_enabled
    aten::len.str aten::str aten::add.str prim::is_cuda prim::is_cpu
    prim::is_sparse prim::is_quantized prim::is_meta prim::is_mkldnn
    aten::is_floating_point aten::is_complex aten::is_signed
    aten::is_contiguous aten::is_scripting aten::sum.int aten::sum.float
    aten::sum.bool aten::_infer_size
    aten::__range_length
    aten::__derive_index aten::find aten::div.Tensor_mode aten::all.int
    aten::all.float aten::all.bool aten::any.int aten::any.float
    aten::any.bool aten::any.str
""".split())
# Canonicalization patterns (rewrites that make new ops, which a folder
# cannot): list slices of known lists.
HAS_CANONICALIZER = set("""
    aten::slice.t
""".split())
HAS_VERIFIER = set("""
    aten::add.Tensor aten::sub.Tensor aten::mul.Tensor aten::div.Tensor
    aten::div.Tensor_mode aten::minimum aten::maximum aten::max.other
    aten::min.other aten::pow.Tensor_Tensor aten::where.self
    aten::eq.Tensor aten::ne.Tensor aten::lt.Tensor aten::le.Tensor
    aten::gt.Tensor aten::ge.Tensor aten::eq.Scalar aten::ne.Scalar
    aten::lt.Scalar aten::le.Scalar aten::gt.Scalar aten::ge.Scalar
    aten::mm aten::bmm aten::softmax.int aten::log_softmax.int
    aten::transpose.int aten::unsqueeze aten::select.int aten::size.int
    aten::squeeze.dim aten::cat aten::view aten::reshape aten::permute
""".split())

# C++ and ODS names that an operand may not take.
RESERVED = {"name", "type", "operands", "results", "attributes", "context",
            "location", "loc", "operation", "properties", "result", "default",
            "min", "max", "float", "int", "bool", "str", "t", "list", "values"}


def camel(name):
    """aten::add_ -> Add_, __getitem__ -> __Getitem__, _size_if -> _SizeIf."""
    lead = len(name) - len(name.lstrip("_"))
    trail = len(name) - len(name.rstrip("_"))
    core = name.strip("_")
    parts = [p[:1].upper() + p[1:] for p in core.split("_") if p]
    return "_" * lead + "".join(parts) + "_" * trail


def cpp_class(qualified, overload):
    ns, name = qualified.split("::")
    cls = ns.capitalize() + camel(name)
    if overload:
        cls += camel(overload)
    return cls + "Op"


# Schema type -> ODS type constraint.
def constraint(t):
    t = re.sub(r"\((?:[a-z]|\*)[^)]*\)", "", t)  # drop alias annotations
    if t.endswith("?"):
        base = t[:-1]
        table = {
            "Tensor": "TS_OptionalTensor", "int": "TS_OptionalInt",
            "SymInt": "TS_OptionalInt", "float": "TS_OptionalFloat",
            "bool": "TS_OptionalBool", "str": "TS_OptionalStr",
            "Scalar": "TS_OptionalScalar", "ScalarType": "TS_OptionalDtype",
            "Layout": "TS_OptionalLayout", "Device": "TS_OptionalDevice",
            "MemoryFormat": "TS_OptionalMemoryFormat",
            "Generator": "TS_OptionalGenerator", "t": "TS_AnyTSType",
        }
        if base in table:
            return table[base]
        if re.fullmatch(r"(int|SymInt)\[\d*\]", base):
            return "TS_OptionalIntList"
        if re.fullmatch(r"float\[\d*\]", base):
            return "TS_OptionalFloatList"
        raise KeyError(t)
    m = re.fullmatch(r"(\w+\??)\[(\d*)\]", t)
    if m:
        elem, size = m.groups()
        if elem in ("int", "SymInt"):
            return "TS_IntListLike" if size else "TS_IntList"
        return {"float": "TS_FloatList", "bool": "TS_BoolList",
                "Tensor": "TS_TensorList", "Tensor?": "TS_OptionalTensorList",
                "t": "TS_AnyList", "Any": "TS_AnyList", "str": "TS_AnyList",
                "Scalar": "TS_AnyList"}[elem]
    if t.startswith("Dict("):
        return "TS_AnyDict"
    return {
        "Tensor": "TS_Tensor", "int": "TS_IntLike", "SymInt": "TS_IntLike",
        "float": "TS_FloatType", "bool": "TS_BoolType", "str": "TS_StrLike",
        "Scalar": "TS_ScalarLike", "ScalarType": "TS_DtypeLike",
        "Layout": "TS_DtypeLike", "MemoryFormat": "TS_DtypeLike",
        "Device": "TS_DeviceLike", "complex": "TS_ComplexType",
        "Generator": "TS_GeneratorType", "t": "TS_AnyTSType",
        "t1": "TS_AnyTSType", "t2": "TS_AnyTSType", "Any": "TS_AnyTSType",
        "AnyEnumType": "TS_AnyTSType",
    }[t]


def split_top(s):
    """Split on commas outside brackets."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_schema(text):
    m = re.fullmatch(r"([\w:]+)(?:\.(\w+))?\((.*)\) -> (.*)", text)
    qualified, overload, args, rets = m.groups()
    operands = []
    for a in split_top(args):
        if a == "*":
            continue
        if a == "...":
            operands.append(("Variadic<TS_AnyTSType>", "varargs"))
            continue
        a = a.split("=")[0].strip()
        typ, name = a.rsplit(" ", 1)
        operands.append((constraint(typ), name))
    rets = rets.strip()
    if rets.startswith("(") and not re.fullmatch(r"\(\w\)", rets):
        rets = rets[1:-1]
    results = []
    for i, r in enumerate(split_top(rets)):
        if r == "...":
            results.append(("Variadic<TS_AnyTSType>", "results"))
            continue
        parts = r.rsplit(" ", 1)
        typ = parts[0]
        name = parts[1] if len(parts) == 2 else None
        results.append((constraint(typ), name))
    return qualified, overload or "", operands, results


def sanitize(name, used):
    if name in RESERVED or name.startswith("_"):
        name = name.strip("_") + "Value"
    base, i = name, 1
    while name in used:
        name = f"{base}{i}"
        i += 1
    used.add(name)
    return name


def inplace_variants(schemas):
    """The in-place schema (`aten::add_.Tensor`) of every tensor op in OPS
    that has one and is not listed: the mutation-removal pass rewrites each
    to its out-of-place op, so the whole family follows from OPS."""
    listed = set(" ".join(OPS.values()).split())
    # Ops whose result has self's sizes (in-place forms of views, which
    # change self's sizes, are not rewritten that way).
    same_size = " ".join(v for k, v in OPS.items()
                         if k in ("elementwise", "math", "reduction",
                                  "linalg", "nn", "composite", "scatter"))
    out = []
    for key in same_size.split():
        name, _, overload = key.partition(".")
        if name.endswith("_") or not name.startswith("aten::") or \
                key in NO_INPLACE_VARIANT:
            continue
        if "Tensor" not in schemas.get(key, "").split("->")[0]:
            continue
        candidates = [name + "_" + ("." + overload if overload else "")]
        if not overload:  # floor_divide -> floor_divide_.Tensor
            candidates.append(name + "_.Tensor")
        else:  # ldexp.Tensor -> ldexp_
            candidates.append(name + "_")
        if overload.startswith("Tensor_"):  # pow.Tensor_Scalar -> pow_.Scalar
            candidates.append(name + "_." + overload[len("Tensor_"):])
        for c in candidates:
            if c in schemas and c not in listed and c not in out and \
                    "!" in schemas[c].split("->")[0]:
                out.append(c)
                break
    return out


def main():
    if "--all-schemas" in sys.argv:
        print(all_schemas_table())
        return
    schemas = {}
    for s in torch._C._jit_get_all_schemas():
        key = s.name + ("." + s.overload_name if s.overload_name else "")
        schemas[key] = str(s)

    out = []
    w = out.append
    w("//===- GeneratedOps.td - Schema-described TorchScript ops -*- tablegen -*-===//")
    w("//")
    w("// Generated by scripts/generate_ts_ops.py from the operator schemas of")
    w(f"// PyTorch {torch.__version__}. Do not edit: regenerate with")
    w("//   /usr/bin/python3 scripts/generate_ts_ops.py \\")
    w("//     > include/tsmlir/Dialect/TorchScript/IR/GeneratedOps.td")
    w("//")
    w("//===----------------------------------------------------------------------===//")
    w("")
    seen = set()
    count = 0
    records = []
    groups = dict(OPS)
    groups["inplace variants"] = " ".join(inplace_variants(schemas))
    for group, names in groups.items():
        w("//===----------------------------------------------------------------------===//")
        w(f"// {group}")
        w("//===----------------------------------------------------------------------===//")
        w("")
        for key in names.split():
            if key not in schemas:
                sys.exit(f"error: no schema for {key}")
            text = schemas[key]
            qualified, overload, operands, results = parse_schema(text)
            cls = cpp_class(qualified, overload)
            assert cls not in seen, cls
            seen.add(cls)
            ns, name = qualified.split("::")
            mnemonic = f"{ns}.{name}" + (f".{overload}" if overload else "")
            inplace = "!" in text.split("->")[0]
            view = bool(re.search(r"->.*Tensor\(a\)", text)) and not inplace
            traits = []
            if inplace:
                traits.append("TS_InPlace")
            if inplace or key in NONDETERMINISTIC or key in SIDE_EFFECTS:
                traits.append("TS_SideEffecting")
            elif reads_mutable(text):
                traits.append("TS_ReadOnly")
            else:
                traits.append("TS_Functional")
            if view:
                traits.append("TS_ViewLike")
            used = set()
            ops_ = [(c, sanitize(n, used)) for c, n in operands]
            res = []
            for i, (c, n) in enumerate(results):
                n = n or ("result" if len(results) == 1 else f"result{i}")
                res.append((c, sanitize(n, used) if n not in ("result",) and not n.startswith("result") else n))
            d = f"TS_{cls}"
            w(f"def {d} : TS_SchemaOp<\"{mnemonic}\",")
            escaped = text.replace("\\", "\\\\").replace('"', '\\"')
            w(f"    \"{escaped}\",")
            w(f"    [{', '.join(traits)}]> {{")
            args = ", ".join(f"{c}:${n}" for c, n in ops_)
            w(f"  let arguments = (ins {args});")
            rs = ", ".join(f"{c}:${n}" for c, n in res)
            w(f"  let results = (outs {rs});")
            if key in HAS_FOLDER:
                w("  let hasFolder = 1;")
            if key in HAS_VERIFIER:
                w("  let hasVerifier = 1;")
            if key in HAS_CANONICALIZER:
                w("  let hasCanonicalizer = 1;")
            w("}")
            w("")
            count += 1
            records.append((mnemonic, [c for c, _ in ops_], [c for c, _ in res]))
    w(f"// {count} ops.")
    if "--test" in sys.argv:
        print(round_trip_test(records))
        return
    if "--signatures" in sys.argv:
        print(signature_table(records))
        return
    print("\n".join(out))
    print(f"generated {count} ops", file=sys.stderr)


def cpp_string(text):
    """A C++ string literal for `text` (octal escapes, which end after three
    digits, so that a following hex digit is not read into them)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend("\\%03o" % b for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'


def all_schemas_table():
    """Every aten:: and prim:: schema PyTorch registers, in registration
    order, for the `.pt` source front end (lib/Target/PtArchive), which binds
    calls in archived code to overloads, keyword arguments and defaults as
    PyTorch's own IR emitter does."""
    lines = [
        "// Generated by scripts/generate_ts_ops.py --all-schemas from the",
        f"// operator registry of PyTorch {torch.__version__}. Do not edit.",
        "// Every aten:: and prim:: schema, in registration order (the order in",
        "// which PyTorch tries overloads).",
        "",
        "static const char *const kSchemaTexts[] = {",
    ]
    count = 0
    for s in torch._C._jit_get_all_schemas():
        if s.name.split("::")[0] not in ("aten", "prim"):
            continue
        lines.append("    " + cpp_string(str(s)) + ",")
        count += 1
    lines.append("};")
    lines.append(f"// {count} schemas.")
    return "\n".join(lines)


# A sample type for each ODS constraint, to instantiate every op in a test.
SAMPLE_TYPES = {
    "TS_Tensor": "!ts.tensor<f32>",
    "TS_OptionalTensor": "!ts.optional<!ts.tensor>",
    "TS_IntLike": "!ts.int",
    "TS_ScalarLike": "!ts.number",
    "TS_IntList": "!ts.list<!ts.int>",
    "TS_IntListLike": "!ts.list<!ts.int>",
    "TS_FloatList": "!ts.list<!ts.float>",
    "TS_BoolList": "!ts.list<!ts.bool>",
    "TS_TensorList": "!ts.list<!ts.tensor>",
    "TS_OptionalTensorList": "!ts.list<!ts.optional<!ts.tensor>>",
    "TS_AnyList": "!ts.list<!ts.int>",
    "TS_AnyDict": "!ts.dict<!ts.str, !ts.tensor>",
    "TS_StrLike": "!ts.str",
    "TS_DeviceLike": "!ts.device",
    "TS_DtypeLike": "!ts.int",
    "TS_FloatType": "!ts.float",
    "TS_BoolType": "!ts.bool",
    "TS_ComplexType": "!ts.complex",
    "TS_GeneratorType": "!ts.generator",
    "TS_AnyTSType": "!ts.any",
    "TS_OptionalInt": "!ts.none",
    "TS_OptionalFloat": "!ts.optional<!ts.float>",
    "TS_OptionalBool": "!ts.none",
    "TS_OptionalStr": "!ts.none",
    "TS_OptionalScalar": "!ts.optional<!ts.number>",
    "TS_OptionalIntList": "!ts.none",
    "TS_OptionalFloatList": "!ts.none",
    "TS_OptionalDtype": "!ts.optional<!ts.int>",
    "TS_OptionalDevice": "!ts.none",
    "TS_OptionalLayout": "!ts.none",
    "TS_OptionalMemoryFormat": "!ts.none",
    "TS_OptionalGenerator": "!ts.none",
}

# Result types where the operand sample would not be a valid result.
RESULT_TYPES = dict(SAMPLE_TYPES, TS_Tensor="!ts.tensor", TS_IntLike="!ts.int")


def round_trip_test(records):
    """A lit test that parses, prints and re-parses one instance of each op."""
    lines = [
        "// Generated by scripts/generate_ts_ops.py --test. Do not edit.",
        "// One instance of every schema-described op: parse, print, parse.",
        "// RUN: tsmlir-opt %s -verify-roundtrip | tsmlir-opt | FileCheck %s",
        "",
    ]
    for mnemonic, operands, results in records:
        types = []
        for c in operands:
            if c.startswith("Variadic<"):
                types += ["!ts.int", "!ts.float"]
            else:
                types.append(SAMPLE_TYPES[c])
        rtypes = [RESULT_TYPES[c] for c in results
                  if not c.startswith("Variadic<")]
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
        uses = ", ".join(f"%a{i}" for i in range(len(types)))
        fn = "op_" + mnemonic.replace(".", "_")
        ret = f" -> ({', '.join(rtypes)})" if rtypes else ""
        fty = f"({', '.join(types)}) -> ({', '.join(rtypes)})"
        printed = ", ".join(f"%arg{i}" for i in range(len(types)))
        lines.append(f"// CHECK-LABEL: func.func @{fn}(")
        lines.append(f"func.func @{fn}({args}){ret} {{")
        lines.append(f"  // CHECK: ts.{mnemonic} {printed}".rstrip())
        if not rtypes:
            lines.append(f"  ts.{mnemonic} {uses} : {fty}")
            lines.append("  return")
        elif len(rtypes) == 1:
            lines.append(f"  %r = ts.{mnemonic} {uses} : {fty}")
            lines.append(f"  return %r : {rtypes[0]}")
        else:
            lines.append(f"  %r:{len(rtypes)} = ts.{mnemonic} {uses} : {fty}")
            vals = ", ".join(f"%r#{i}" for i in range(len(rtypes)))
            lines.append(f"  return {vals} : {', '.join(rtypes)}")
        lines.append("}")
        lines.append("")
    return "\n".join(lines)


def predicate(c):
    """The C++ predicate of an ODS constraint (see TorchScriptTypes.td)."""
    return "isTS" + c[len("TS_"):]


def signature_table(records):
    """The operand and result constraints of every op, for the importer's
    overload resolution (lib/Dialect/TorchScript/IR/OpSignatures.cpp)."""
    lines = [
        "// Generated by scripts/generate_ts_ops.py --signatures. Do not edit.",
        "// For each schema op: its TorchScript kind, the constraint of each",
        "// operand and result, and whether the last operand is variadic.",
        "",
    ]
    table = []
    for mnemonic, operands, results in records:
        ident = mnemonic.replace(".", "_")
        variadic = bool(operands) and operands[-1].startswith("Variadic<")
        ops = [o[len("Variadic<"):-1] if o.startswith("Variadic<") else o
               for o in operands]
        ns, name = mnemonic.split(".")[:2]
        kind = f"{ns}::{name}"
        lines.append(f"static const TypePredicate {ident}_operands[] = "
                     f"{{{', '.join(predicate(o) for o in ops) or 'nullptr'}}};")
        lines.append(f"static const TypePredicate {ident}_results[] = "
                     f"{{{', '.join(predicate(r) for r in results) or 'nullptr'}}};")
        table.append(f'    {{"ts.{mnemonic}", "{kind}", '
                     f'{ident}_operands, {len(ops)}, {ident}_results, '
                     f'{len(results)}, {"true" if variadic else "false"}}},')
    lines.append("")
    lines.append("static const OpSignature kSignatures[] = {")
    lines += table
    lines.append("};")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
