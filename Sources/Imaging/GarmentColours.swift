import Foundation

/// The main colours of the garment in an image: up to three palette names with their
/// shares of the garment's area and the mean L*a*b* of the pixels each name covers. Measured
/// on the garment only, with the mask the photo recipe finds (so a white shirt on a red bed
/// is white), at the recipe's working size; on the whole image where it finds none (an image
/// with Fashion-MNIST's black border), and `onGarment` says so.
public struct GarmentColours: Sendable, Equatable {
    public struct Share: Sendable, Equatable {
        public var colour: ClothingColour
        /// Of the measured area, 0...1.
        public var share: Double
        public var lab: CIELab
    }

    /// Largest share first; at most three, none under `minimumShare`.
    public var colours: [Share]
    /// False when no garment was found and the whole image was measured.
    public var onGarment: Bool

    /// A name covering less of the garment than this is not one of its main colours.
    public static let minimumShare = 0.1
    /// When no name covers this much of the garment, the garment is multicoloured.
    public static let dominantShare = 0.5

    /// The one name for the garment: its largest colour, or `multicolour` when none covers
    /// `dominantShare` of it.
    public var main: ClothingColour {
        guard let first = colours.first, first.share >= Self.dominantShare else { return .multicolour }
        return first.colour
    }

    public init(colours: [Share], onGarment: Bool) {
        self.colours = colours
        self.onGarment = onGarment
    }

    /// Measures `image` (the stored thumbnail) with the photo recipe's segmentation.
    public init(measuring image: Bitmap, recipe: PhotoRecipe = PhotoRecipe()) {
        let rgb = image.rgb()
        let working = Bitmap.fittedSize(width: rgb.width, height: rgb.height, longestSide: recipe.workingSide)
        let samples = AreaResampler.resize(rgb.pixels, width: rgb.width, height: rgb.height, channels: 3,
                                           toWidth: working.width, toHeight: working.height) { Float($0) }
        let mask = recipe.garmentMask(width: working.width, height: working.height, colours: samples)
        self.init(samples: samples, mask: mask)
    }

    /// From working-size RGB samples and the garment's mask on them (nil: the whole image).
    init(samples raw: [Float], mask: Mask?) {
        let samples = WhitePatch.adapted(raw)
        var counts = [Int](repeating: 0, count: ClothingColour.allCases.count)
        var sums = [SIMD3<Double>](repeating: .zero, count: counts.count)
        let table = ColourTable.shared
        for pixel in 0..<samples.count / 3 where mask?.bits[pixel] ?? true {
            let rgb = SIMD3(Double(samples[3 * pixel]), Double(samples[3 * pixel + 1]), Double(samples[3 * pixel + 2]))
            let name = table.name(red: samples[3 * pixel], green: samples[3 * pixel + 1], blue: samples[3 * pixel + 2])
            counts[name] += 1
            sums[name] += rgb
        }
        let total = Double(max(1, counts.reduce(0, +)))
        let shares = counts.indices.filter { Double(counts[$0]) / total >= Self.minimumShare }
            .sorted { counts[$0] > counts[$1] || (counts[$0] == counts[$1] && $0 < $1) }
            .prefix(3)
            .map { index in
                let mean = sums[index] / Double(counts[index])
                return Share(colour: ClothingColour.allCases[index], share: Double(counts[index]) / total,
                             lab: CIELab(red: mean.x, green: mean.y, blue: mean.z))
            }
        self.init(colours: Array(shares), onGarment: mask != nil)
    }
}

/// The palette name of every sRGB colour, 16 levels a channel (4,096 cells, each named by
/// its centre), made once per process: naming a pixel is then a lookup, not 130 CIEDE2000
/// distances. A cell is 16 levels wide, finer than any boundary between two names needs.
struct ColourTable: Sendable {
    static let shared = ColourTable()
    private let names: [UInt8]

    private init() {
        var names = [UInt8](repeating: 0, count: 4096)
        let index = Dictionary(uniqueKeysWithValues: ClothingColour.allCases.enumerated().map { ($1, UInt8($0)) })
        for cell in 0..<4096 {
            let centre = { (level: Int) in Double(level * 16) + 7.5 }
            let lab = CIELab(red: centre(cell >> 8), green: centre(cell >> 4 & 15), blue: centre(cell & 15))
            names[cell] = index[ClothingColour.named(lab)]!
        }
        self.names = names
    }

    /// The index in `ClothingColour.allCases` of the name of an sRGB colour (0...255 each).
    func name(red: Float, green: Float, blue: Float) -> Int {
        func level(_ value: Float) -> Int { max(0, min(15, Int(value) >> 4)) }
        return Int(names[level(red) << 8 | level(green) << 4 | level(blue)])
    }
}

/// Von Kries adaptation to the photo's own white: in linear light, each channel is scaled
/// so that the brightest part of the picture (its 99th percentile, over the whole image,
/// background included) becomes white, at most doubled. Photos of clothes are taken indoors,
/// under warm or dim light: a white shirt comes out gray-beige and a blue one gray-blue, and
/// named against the references as they are, most whites were called gray.
enum WhitePatch {
    static let maximumGain = 2.0

    static func adapted(_ samples: [Float]) -> [Float] {
        let pixels = samples.count / 3
        guard pixels > 0 else { return samples }
        var linear = samples.map { toLinear($0) }
        var gains = [Double](repeating: 1, count: 3)
        for channel in 0..<3 {
            var values = (0..<pixels).map { linear[3 * $0 + channel] }
            values.sort()
            let white = values[min(pixels - 1, Int(Double(pixels) * 0.99))]
            gains[channel] = white > 0 ? min(maximumGain, max(1, 1 / white)) : 1
        }
        for i in linear.indices { linear[i] = min(1, linear[i] * gains[i % 3]) }
        return linear.map { toEncoded($0) }
    }

    static func toLinear(_ value: Float) -> Double {
        let c = max(0, min(1, Double(value) / 255))
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    static func toEncoded(_ value: Double) -> Float {
        let c = value <= 0.0031308 ? 12.92 * value : 1.055 * pow(value, 1 / 2.4) - 0.055
        return Float(c * 255)
    }
}
