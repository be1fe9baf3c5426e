import Foundation
import SeededRandom

/// A small, fast random number generator whose stream depends only on its
/// seed (xoshiro256**, seeded through SplitMix64), so a training run with the
/// same `--seed` draws the same numbers on every machine and toolchain.
/// The standard library's generators make no such promise.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    public init(seed: UInt64) {
        var splitMix = SplitMix64(seed: seed)
        state = (splitMix.next(), splitMix.next(), splitMix.next(), splitMix.next())
    }

    /// A generator for one sub-stream (a worker, a step), independent of the
    /// order in which streams are created.
    public init(seed: UInt64, stream: UInt64) {
        self.init(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03) &+ 0x2545_F491_4F6C_DD1D)
    }

    public mutating func next() -> UInt64 {
        let result = ((state.1 &* 5) << 7 | (state.1 &* 5) >> 57) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = state.3 << 45 | state.3 >> 19
        return result
    }

    /// Uniform in `0..<bound`, by the multiply-high method.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "empty range")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Uniform in `[0, 1)` with 24 random bits.
    public mutating func unitFloat() -> Float {
        Float(next() >> 40) * 0x1p-24
    }

    /// Standard normal, by Box-Muller (one of the pair is discarded: simple,
    /// and initialisation is the only caller).
    public mutating func normal() -> Float {
        let u1 = Double(next() >> 11) * 0x1p-53 + 0x1p-54
        let u2 = Double(next() >> 11) * 0x1p-53
        return Float((-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
    }

    /// Fisher-Yates, written out so the permutation never depends on the
    /// standard library's shuffling algorithm.
    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) {
            array.swapAt(i, below(i + 1))
        }
    }
}
