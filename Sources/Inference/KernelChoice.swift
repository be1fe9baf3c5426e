import CInferenceKernels

/// Which convolution and dense kernels a compiled model runs.
public enum KernelChoice: Sendable, Equatable {
    /// AVX-512 where the CPU has it (checked at run time), else portable C.
    case fastest
    /// Portable C everywhere: what a CPU without AVX-512 runs. Slower; for
    /// checking that path on a machine that would otherwise never take it.
    case portable

    /// Floats per vector of the fastest kernels on this CPU: 16 with AVX-512, else 1.
    public static var vectorWidth: Int { Int(ik_vector_width()) }
}
