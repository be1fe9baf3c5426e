/// Von Kries adaptation to the photo's own white: in linear light, each channel is scaled so
/// that the bright end of the picture (its 97th percentile, over the whole image, background
/// included) becomes white, the gain between 1 and 2. Photos of clothes are taken indoors,
/// under warm or dim light: a white shirt comes out grey-beige and a blue one grey-blue, and
/// named as they are, most whites were called grey.
struct WhitePatch {
    static let percentile = 0.97
    static let maximumGain = 2.0

    /// Linear light of the sample values 0, 1/16, ... 255 (the area averages are fractional).
    private static let steps = 16
    private static let linearTable: [Double] = (0...255 * steps).map { CIELab.linear(Double($0) / Double(steps)) }
    /// The linear light at which each 4-bit sRGB level (of 16 values) ends.
    private static let levelEnds: [Double] = (1..<16).map { CIELab.linear(Double($0 * 16)) }

    private let gains: SIMD3<Double>

    /// The gains for a picture's RGB samples (0...255), from a histogram of whole levels.
    init(samples: [Float]) {
        var histograms = [Int](repeating: 0, count: 3 * 256)
        samples.withUnsafeBufferPointer { samples in
            var index = 0
            while index + 2 < samples.count {
                for channel in 0..<3 {
                    histograms[channel * 256 + Self.rounded(samples[index + channel], upTo: 255)] += 1
                }
                index += 3
            }
        }
        let rank = Int(Self.percentile * Double(samples.count / 3))
        var gains = SIMD3<Double>(repeating: 1)
        for channel in 0..<3 {
            var seen = 0
            for level in 0..<256 {
                seen += histograms[channel * 256 + level]
                guard seen > rank else { continue }
                let white = Self.linearTable[level * Self.steps]
                gains[channel] = white > 0 ? min(Self.maximumGain, max(1, 1 / white)) : 1
                break
            }
        }
        self.gains = gains
    }

    /// A sample adapted: its L*a*b* and its 4-bit sRGB levels (for `ColourTable`).
    func adapted(_ red: Float, _ green: Float, _ blue: Float) -> (lab: CIELab, level: SIMD3<Int>) {
        let linear = SIMD3(Self.linearTable[Self.step(red)], Self.linearTable[Self.step(green)],
                           Self.linearTable[Self.step(blue)])
        let white = (linear * gains).replacing(with: 1, where: linear * gains .> 1)
        return (CIELab(linearRed: white.x, green: white.y, blue: white.z), SIMD3(Self.level(white.x), Self.level(white.y), Self.level(white.z)))
    }

    /// The first 4-bit level whose end lies above `value` (15 past the last end), by halving:
    /// the ends rise, so this is the level a search from the darkest finds.
    @inline(__always)
    private static func level(_ value: Double) -> Int {
        var low = 0, high = levelEnds.count
        while low < high {
            let middle = (low + high) / 2
            if value < levelEnds[middle] { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private static func step(_ value: Float) -> Int {
        rounded(value * Float(steps), upTo: 255 * steps)
    }

    /// `value.rounded()` (half away from zero) clamped to `0...highest`, without a libm call
    /// per sample (`roundf` was a twentieth of an import's colour work): a Float is exact as a
    /// Double, and so is adding a half to it, so truncating rounds exactly as `rounded()` does
    /// for every value at or above 0.
    @inline(__always)
    private static func rounded(_ value: Float, upTo highest: Int) -> Int {
        guard value > 0 else { return 0 }
        return Int(min(Double(highest), Double(value) + 0.5))
    }
}
