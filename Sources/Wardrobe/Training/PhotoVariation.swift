import Imaging
import Training

/// Random changes to a photo before it is prepared: a tighter framing and a
/// different exposure and white balance. The tensor augmentation (flip,
/// warp, gain) changes what prep made; this changes what prep is given, so
/// the model also sees the other masks and crops the segmentation makes of
/// the same garment when it is framed or lit differently, which is how prep
/// output varies between one person's photos and another's.
public struct PhotoVariation: Sendable, Equatable {
    /// Each side keeps a share drawn from `minimumKept ... 1` of its length.
    public var minimumKept: Double
    /// Overall brightness gain drawn from `1 - maxBrightness ... 1 + maxBrightness`.
    public var maxBrightness: Double
    /// Contrast about the image's mean, drawn like the brightness.
    public var maxContrast: Double
    /// Each colour channel's own gain (white balance), drawn like the brightness.
    public var maxChannelGain: Double

    public init(minimumKept: Double = 0.85, maxBrightness: Double = 0.15, maxContrast: Double = 0.2,
                maxChannelGain: Double = 0.08) {
        self.minimumKept = minimumKept
        self.maxBrightness = maxBrightness
        self.maxContrast = maxContrast
        self.maxChannelGain = maxChannelGain
    }

    /// One line for logs and the model's metadata.
    public var summary: String {
        "crop to \(Int((minimumKept * 100).rounded()))-100% of each side, brightness ±\(maxBrightness), "
            + "contrast ±\(maxContrast), channel gain ±\(maxChannelGain)"
    }

    /// A changed copy of `image`. Draws the same number of values whatever
    /// the image, so one photo's variations do not depend on another's.
    public func apply(to image: Bitmap, generator: inout SeededGenerator) -> Bitmap {
        let keptX = minimumKept + (1 - minimumKept) * Double(generator.unitFloat())
        let keptY = minimumKept + (1 - minimumKept) * Double(generator.unitFloat())
        let startX = Double(generator.unitFloat()), startY = Double(generator.unitFloat())
        let brightness = 1 + maxBrightness * Double(2 * generator.unitFloat() - 1)
        let contrast = 1 + maxContrast * Double(2 * generator.unitFloat() - 1)
        let channelGains = (0..<3).map { _ in 1 + maxChannelGain * Double(2 * generator.unitFloat() - 1) }

        let width = max(Int((Double(image.width) * keptX).rounded()), 1)
        let height = max(Int((Double(image.height) * keptY).rounded()), 1)
        let x = Int((Double(image.width - width) * startX).rounded())
        let y = Int((Double(image.height - height) * startY).rounded())
        var cropped = image.cropped(to: PixelRect(x: x, y: y, width: width, height: height))

        let mean = Double(cropped.pixels.reduce(0) { $0 + Int($1) }) / Double(max(cropped.pixels.count, 1))
        // One lookup table per channel: the change is per sample value.
        let tables: [[UInt8]] = (0..<cropped.channels).map { channel in
            let gain = brightness * (cropped.channels == 3 ? channelGains[channel] : 1)
            return (0...255).map { value in
                let changed = ((Double(value) - mean) * contrast + mean) * gain
                return UInt8(min(max(changed.rounded(), 0), 255))
            }
        }
        let channels = cropped.channels
        cropped.pixels.withUnsafeMutableBufferPointer { samples in
            for i in samples.indices { samples[i] = tables[i % channels][Int(samples[i])] }
        }
        return cropped
    }
}
