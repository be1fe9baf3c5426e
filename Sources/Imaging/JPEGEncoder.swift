import CTurboJPEG

/// Writes baseline or progressive JPEG files through TurboJPEG, optionally carrying an EXIF
/// orientation (so tests and benchmarks can make photos as cameras store them).
public struct JPEGEncoder: Sendable {
    public enum Subsampling: Sendable {
        case none, halfWidth, quarter

        var turboJPEG: TJSAMP {
            switch self {
            case .none: TJSAMP_444
            case .halfWidth: TJSAMP_422
            case .quarter: TJSAMP_420
            }
        }
    }

    /// 1...100.
    public var quality: Int
    public var progressive: Bool
    /// Chroma subsampling for colour images (gray images have none).
    public var subsampling: Subsampling
    /// When set, an APP1 Exif segment with this orientation is written.
    public var orientation: Orientation?

    public init(quality: Int = 85, progressive: Bool = false, subsampling: Subsampling = .quarter,
                orientation: Orientation? = nil) {
        self.quality = quality
        self.progressive = progressive
        self.subsampling = subsampling
        self.orientation = orientation
    }

    /// A JPEG of the bitmap: one-component for gray, YCbCr for RGB.
    public func encode(_ bitmap: Bitmap) throws(ImagingError) -> [UInt8] {
        let jpeg = try JPEGCodec.encode(bitmap.pixels, width: bitmap.width, height: bitmap.height,
                                        format: bitmap.isGray ? TJPF_GRAY : TJPF_RGB,
                                        subsampling: bitmap.isGray ? TJSAMP_GRAY : subsampling.turboJPEG,
                                        quality: quality, progressive: progressive)
        return withOrientation(jpeg)
    }

    /// A four-component (YCCK) JPEG from CMYK samples in the inverted convention JPEG files
    /// use (255 means no ink).
    public func encode(cmyk: [UInt8], width: Int, height: Int) throws(ImagingError) -> [UInt8] {
        guard cmyk.count == width * height * 4, width > 0, height > 0 else {
            throw ImagingError(.encodingFailed, "JPEG encoding failed: \(cmyk.count) CMYK bytes for a \(width)x\(height) image")
        }
        let jpeg = try JPEGCodec.encode(cmyk, width: width, height: height, format: TJPF_CMYK,
                                        subsampling: subsampling.turboJPEG, quality: quality, progressive: progressive)
        return withOrientation(jpeg)
    }

    private func withOrientation(_ jpeg: [UInt8]) -> [UInt8] {
        guard let orientation else { return jpeg }
        return Exif.insertingOrientation(orientation, intoJPEG: jpeg)
    }
}
