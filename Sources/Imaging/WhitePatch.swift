/// Von Kries adaptation to the photo's own white: in linear light, each channel is scaled so
/// that the bright end of the picture (its 97th percentile, over the whole image, background
/// included) becomes white, the gain between 1 and 2. Photos of clothes are taken indoors,
/// under warm or dim light: a white shirt comes out grey-beige and a blue one grey-blue, and
/// named as they are, most whites were called grey.
///
/// A bright end whose colour lies further than `maximumDistanceFromLight` (Duv) from the
/// Planckian locus is not the colour of any light people photograph under but of a surface:
/// a red bed or a yellow wall that holds the top of a channel. Its cast is then not taken off
/// (which turned a grey shirt on a red bed cyan and a white print on a yellow wall lavender);
/// the picture is only brightened, by one gain that brings its brightest channel to white.
///
/// The gains come from the recipe's working copy (its samples are area averages); the pixels
/// adapted are the thumbnail's whole bytes, so each channel's 256 adapted values and 4-bit
/// levels are worked out once a picture rather than once a pixel.
struct WhitePatch {
    static let percentile = 0.97
    static let maximumGain = 2.0
    /// A round value chosen on the even rows of bench/colour-labels.tsv (0.005, 0.01, 0.02,
    /// 0.03 and 0.05 scanned: 58, 62, 61, 61 and 61 of 75). Daylight (D65) is 0.0032 from the
    /// locus, a tungsten bulb (A) on it, a fluorescent tube (the CIE's F2) 0.0019.
    static let maximumDistanceFromLight = 0.01

    /// Linear light of the byte values 0...255.
    private static let linearTable: [Double] = (0...255).map { CIELab.linear(Double($0)) }
    /// The linear light at which each 4-bit sRGB level (of 16 values) ends.
    private static let levelEnds: [Double] = (1..<16).map { CIELab.linear(Double($0 * 16)) }

    /// Channel-major (red's 256, then green's, then blue's): each byte value's linear light
    /// times the channel's gain, at most 1, and the 4-bit level that falls in.
    private let adaptedLinear: [Double]
    private let levels: [Int]

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
        var white = SIMD3<Double>(repeating: 1)
        for channel in 0..<3 {
            var seen = 0
            for level in 0..<256 {
                seen += histograms[channel * 256 + level]
                guard seen > rank else { continue }
                white[channel] = Self.linearTable[level]
                break
            }
        }
        let light = LightChromaticity(linearRed: white.x, green: white.y, blue: white.z)
        if abs(light.distanceFromPlanckianLocus) > Self.maximumDistanceFromLight {
            white = SIMD3(repeating: white.max())
        }
        let gains = SIMD3<Double>((0..<3).map { white[$0] > 0 ? min(Self.maximumGain, max(1, 1 / white[$0])) : 1 })
        adaptedLinear = (0..<3 * 256).map { min(1, Self.linearTable[$0 % 256] * gains[$0 / 256]) }
        levels = adaptedLinear.map(Self.level)
    }

    /// A pixel adapted: its L*a*b* and its 4-bit sRGB levels (for `ColourTable`).
    @inline(__always)
    func adapted(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> (lab: CIELab, level: SIMD3<Int>) {
        let r = Int(red), g = 256 + Int(green), b = 512 + Int(blue)
        return (CIELab(linearRed: adaptedLinear[r], green: adaptedLinear[g], blue: adaptedLinear[b]),
                SIMD3(levels[r], levels[g], levels[b]))
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
