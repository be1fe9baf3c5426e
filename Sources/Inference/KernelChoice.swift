import CInferenceKernels

/// Which convolution and dense kernels a compiled model runs.
public enum KernelChoice: Sendable, Equatable {
    /// AVX-512 where the CPU has it, else AVX2 with FMA where it has that
    /// (checked at run time), else portable C.
    case fastest
    /// Portable C everywhere: what a CPU without AVX2 runs. Slower; for
    /// checking that path on a machine that would otherwise never take it.
    case portable

    /// Floats per vector of the fastest kernels on this CPU: 16 with AVX-512, 8 with AVX2, else 1.
    public static var vectorWidth: Int { Int(ik_vector_width()) }
}
