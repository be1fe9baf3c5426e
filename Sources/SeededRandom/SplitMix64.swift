/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny generator whose stream
/// depends only on its seed, on every machine and toolchain. It seeds the
/// trainer's generator and makes the deterministic data of tests and
/// benchmarks; it is in a module of its own so that each of them can use it
/// without depending on anything else.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The odd constant added at each step, 2^64 over the golden ratio. Also a
    /// good multiplier to spread small seeds over 64 bits (`seed &* gamma | 1`).
    public static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= Self.gamma
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
