/// An image decoded once and reduced to the working size every later step uses.
public struct LoadedImage: Sendable {
    public var format: ImageFormat
    /// The full image's size, orientation applied.
    public var width: Int
    public var height: Int
    public var orientation: Orientation
    /// The JPEG DCT scale the decode used.
    public var decodeScale: ScalingFactor
    /// More than one for an animation or a multi-image HEIF file, of which the first is read.
    public var frameCount = 1
    /// When the photo was taken, as its EXIF says.
    public var captureTime: CaptureTime?
    /// The upright image with its longest side at most the thumbnail side: what the thumbnail
    /// stores and what recipes prepare, so preparing again from a stored thumbnail sees the
    /// same picture (up to JPEG loss).
    public var raster: Bitmap
}

/// The result of importing one image: its facts, its thumbnail and its model input.
public struct ProcessedImage: Sendable {
    public var format: ImageFormat
    /// The full image's size, orientation applied.
    public var width: Int
    public var height: Int
    public var orientation: Orientation
    /// The JPEG DCT scale the decode used (1/1 for PNG).
    public var decodeScale: ScalingFactor
    /// More than one for an animation or a multi-image HEIF file, of which the first is read.
    public var frameCount = 1
    /// When the photo was taken, as its EXIF says.
    public var captureTime: CaptureTime?
    /// JPEG bytes (PNG for small images), longest side at most the processor's thumbnail side.
    public var thumbnail: [UInt8]
    public var thumbnailWidth: Int
    public var thumbnailHeight: Int
    /// One tensor per recipe asked for, in the same order. Crop boxes are in the pixels of the
    /// full upright image.
    public var tensors: [PreparedTensor]
    /// The garment's main colours on the thumbnail, when they were asked for (with the fingerprints).
    public var colours: GarmentColours?
    /// The thumbnail's perceptual fingerprints, taken with the colours.
    public var fingerprint: ImageFingerprint?

    /// The tensor of the first (usually only) recipe.
    public var tensor: PreparedTensor { tensors[0] }

    /// The format as the catalogue records it: the format's name, and for an animation or a
    /// multi-image file which of its frames was read ("webp, first of 12 frames").
    public var formatSummary: String {
        frameCount > 1 ? "\(format.rawValue), first of \(frameCount) frames" : format.rawValue
    }
}

/// The one call the import pipeline makes per image: decode once (JPEG at a reduced DCT
/// scale), orient, make the thumbnail, prepare the tensor.
public struct ImageProcessor: Sendable {
    public var decoder: ImageDecoder
    /// Longest side of thumbnails and of the working raster.
    public var thumbnailSide: Int
    public var thumbnailEncoder: JPEGEncoder

    public init(maxPixels: Int = ImageLimits.default.maxPixels, maxDimension: Int = ImageLimits.default.maxDimension,
                thumbnailSide: Int = 256, background: [UInt8] = [255, 255, 255]) {
        precondition(thumbnailSide >= PreparedTensor.side, "thumbnails are at least as large as the tensor")
        self.decoder = ImageDecoder(limits: ImageLimits(maxDimension: maxDimension, maxPixels: maxPixels),
                                    background: background)
        self.thumbnailSide = thumbnailSide
        self.thumbnailEncoder = JPEGEncoder(quality: 85)
    }

    /// Decodes once at the smallest scale that still covers the thumbnail side.
    public func load(bytes: [UInt8]) throws(ImagingError) -> LoadedImage {
        let decoded = try decoder.decode(bytes, minimumSide: thumbnailSide)
        return LoadedImage(format: decoded.format, width: decoded.width, height: decoded.height,
                           orientation: decoded.orientation, decodeScale: decoded.scale, frameCount: decoded.frameCount,
                           captureTime: decoded.captureTime, raster: decoded.bitmap.fitted(longestSide: thumbnailSide))
    }

    public func process(bytes: [UInt8], recipe: any PrepRecipe) throws(ImagingError) -> ProcessedImage {
        try process(bytes: bytes, recipes: [recipe])
    }

    /// As `process`, and measures the garment's colours and takes the fingerprints of the
    /// thumbnail as stored (what `colours(ofThumbnail:)` and `fingerprint(ofThumbnail:)` find
    /// again from it). With the current photo recipe, the one segmentation serves all three.
    public func processMeasuringColours(bytes: [UInt8], recipe: any PrepRecipe) throws(ImagingError) -> ProcessedImage {
        try process(bytes: bytes, recipes: [recipe], measuringColours: true)
    }

    /// Decodes once and prepares one tensor per recipe (for comparing recipes on one image).
    public func process(bytes: [UInt8], recipes: [any PrepRecipe]) throws(ImagingError) -> ProcessedImage {
        try process(bytes: bytes, recipes: recipes, measuringColours: false)
    }

    private func process(bytes: [UInt8], recipes: [any PrepRecipe], measuringColours: Bool) throws(ImagingError) -> ProcessedImage {
        precondition(!recipes.isEmpty, "at least one recipe")
        let image = try load(bytes: bytes)
        let thumbnail = try encodeThumbnail(image.raster)
        // Recipes prepare the thumbnail as it is stored, not the raster it was made from, so a
        // reclassification from the stored thumbnail sees exactly these pixels and gives the same
        // label. (Under JPEG noise the photo recipe's thresholds flip about 9% of labels on real
        // photos; accuracy moves within noise: see docs/command-line.md and `queries-bench thumbnails`.)
        let seen = thumbnail.isPNG ? image.raster : try decoder.decode(thumbnail).bitmap
        let toFullX = Double(image.width) / Double(image.raster.width)
        let toFullY = Double(image.height) / Double(image.raster.height)
        let colourRecipe = PhotoRecipe()
        var colours: GarmentColours?
        var fingerprint: ImageFingerprint?
        let tensors = recipes.map { recipe in
            var tensor: PreparedTensor
            if measuringColours, colours == nil, let photo = recipe as? PhotoRecipe, photo == colourRecipe {
                (tensor, colours, fingerprint) = photo.prepareMeasuring(seen)
            } else {
                tensor = recipe.prepare(seen)
            }
            tensor.cropBox = tensor.cropBox.scaled(x: toFullX, y: toFullY)
            return tensor
        }
        // Beside another recipe's tensor: one segmentation for the colours and the fingerprints.
        if measuringColours && colours == nil { (colours, fingerprint) = colourRecipe.measure(seen) }
        return ProcessedImage(format: image.format, width: image.width, height: image.height,
                              orientation: image.orientation, decodeScale: image.decodeScale,
                              frameCount: image.frameCount, captureTime: image.captureTime, thumbnail: thumbnail,
                              thumbnailWidth: image.raster.width, thumbnailHeight: image.raster.height,
                              tensors: tensors, colours: colours, fingerprint: fingerprint)
    }

    /// Reads and processes a file; errors name the file.
    public func process(contentsOf path: String, recipes: [any PrepRecipe]) throws(ImagingError) -> ProcessedImage {
        do {
            return try process(bytes: try ImageFile.read(path), recipes: recipes)
        } catch {
            throw error.path == nil ? error.naming(path) : error
        }
    }

    public func process(contentsOf path: String, recipe: any PrepRecipe) throws(ImagingError) -> ProcessedImage {
        try process(contentsOf: path, recipes: [recipe])
    }

    /// Images at most this many pixels on their longest side keep lossless (PNG) thumbnails:
    /// a few hundred bytes, and a 28x28 Fashion-MNIST image reaches the model byte for byte,
    /// at import and at every reclassification.
    public static let losslessThumbnailSide = 64

    /// JPEG, or PNG for small images (see `losslessThumbnailSide`).
    func encodeThumbnail(_ raster: Bitmap) throws(ImagingError) -> [UInt8] {
        if max(raster.width, raster.height) <= ImageProcessor.losslessThumbnailSide {
            return try PNGEncoder().encode(raster)
        }
        return try thumbnailEncoder.encode(raster)
    }

    /// The garment's main colours in a stored thumbnail (see `GarmentColours`).
    public func colours(ofThumbnail thumbnail: [UInt8]) throws(ImagingError) -> GarmentColours {
        GarmentColours(measuring: try decoder.decode(thumbnail).bitmap.fitted(longestSide: thumbnailSide))
    }

    /// The perceptual fingerprints of a stored thumbnail (see `ImageFingerprint`).
    public func fingerprint(ofThumbnail thumbnail: [UInt8]) throws(ImagingError) -> ImageFingerprint {
        ImageFingerprint(measuring: try decoder.decode(thumbnail).bitmap.fitted(longestSide: thumbnailSide))
    }

    /// Prepares a tensor from a stored thumbnail (re-classification works from thumbnails).
    /// The crop box is in the thumbnail's pixels.
    public func prepare(thumbnail: [UInt8], recipe: any PrepRecipe) throws(ImagingError) -> PreparedTensor {
        let decoded = try decoder.decode(thumbnail)
        return recipe.prepare(decoded.bitmap.fitted(longestSide: thumbnailSide))
    }
}

extension [UInt8] {
    /// Starts with the PNG signature.
    var isPNG: Bool { starts(with: [0x89, 0x50, 0x4E, 0x47]) }
}
