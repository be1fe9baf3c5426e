/// An image's perceptual fingerprints as the catalogue keeps them (Imaging's
/// `ImageFingerprint`): 64 bits of the whole picture and, where the photo recipe found a
/// garment, 64 of the box around it, each in a 64-bit integer column as the signed number of
/// the same bits; and each of the two as if cropped (ten of 64 bits, in one blob of 8 bytes
/// each, little-endian), none where they were not taken yet (or, for the garment's, where no
/// garment was found).
public struct StoredFingerprint: Sendable, Equatable {
    public var whole: UInt64
    public var garment: UInt64?
    public var crops: [UInt64]
    public var garmentCrops: [UInt64]

    public init(whole: UInt64, garment: UInt64?, crops: [UInt64] = [], garmentCrops: [UInt64] = []) {
        self.whole = whole
        self.garment = garment
        self.crops = crops
        self.garmentCrops = garmentCrops
    }

    /// The columns' values.
    var wholeColumn: Int64 { Int64(bitPattern: whole) }
    var garmentColumn: Int64? { garment.map { Int64(bitPattern: $0) } }
    var cropsColumn: [UInt8]? { Self.blob(crops) }
    var garmentCropsColumn: [UInt8]? { Self.blob(garmentCrops) }

    init(wholeColumn: Int64, garmentColumn: Int64?, cropsColumn: [UInt8]? = nil, garmentCropsColumn: [UInt8]? = nil) {
        self.init(whole: UInt64(bitPattern: wholeColumn), garment: garmentColumn.map { UInt64(bitPattern: $0) },
                  crops: Self.hashes(cropsColumn), garmentCrops: Self.hashes(garmentCropsColumn))
    }

    /// What the catalogue reads of them, in both engines.
    init(_ row: some CatalogueRow) {
        self.init(wholeColumn: row.int64("fingerprint"), garmentColumn: row.optionalInt64("garment_fingerprint"),
                  cropsColumn: row.optionalBlob("crop_fingerprints"),
                  garmentCropsColumn: row.optionalBlob("garment_crop_fingerprints"))
    }

    private static func blob(_ hashes: [UInt64]) -> [UInt8]? {
        hashes.isEmpty ? nil : hashes.flatMap { hash in (0..<8).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) } }
    }

    /// A blob not made of whole hashes is read as none: `fingerprints` takes them again.
    private static func hashes(_ blob: [UInt8]?) -> [UInt64] {
        let bytes = blob.flatMap { $0.count % 8 == 0 ? $0 : nil } ?? []
        return stride(from: 0, to: bytes.count, by: 8).map { start in
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << (8 * UInt64($1)) }
        }
    }
}
