import Foundation
import Inference
import Testing

/// The vector kernels are what a CPU that can run them runs: a CPU with AVX2
/// and FMA but no AVX-512 once fell back to portable C, four times slower.
@Suite struct KernelChoiceTests {
    /// The CPU's feature flags as Linux reports them, or nil elsewhere.
    static let flags: Set<Substring>? = {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return nil }
        return Set(line.split(separator: " "))
    }()

    @Test(.enabled(if: flags != nil, "no /proc/cpuinfo to read the CPU's features from"))
    func theWidestKernelsTheCPUHasAreChosen() throws {
        let flags = try #require(Self.flags)
        if ["avx512f", "avx512dq", "avx512vl"].allSatisfy(flags.contains) {
            #expect(KernelChoice.vectorWidth == 16)
        } else if ["avx2", "fma"].allSatisfy(flags.contains) {
            #expect(KernelChoice.vectorWidth == 8)
        } else {
            #expect(KernelChoice.vectorWidth == 1)
        }
    }
}
