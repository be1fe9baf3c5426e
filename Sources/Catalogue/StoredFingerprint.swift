/// An image's perceptual fingerprints as the catalogue keeps them (Imaging's
/// `ImageFingerprint`): 64 bits of the whole picture and, where the photo recipe found a
/// garment, 64 of the box around it, each in a 64-bit integer column as the signed number of
/// the same bits.
public struct StoredFingerprint: Sendable, Equatable {
    public var whole: UInt64
    public var garment: UInt64?

    public init(whole: UInt64, garment: UInt64?) {
        self.whole = whole
        self.garment = garment
    }

    /// The columns' values.
    var wholeColumn: Int64 { Int64(bitPattern: whole) }
    var garmentColumn: Int64? { garment.map { Int64(bitPattern: $0) } }

    init(wholeColumn: Int64, garmentColumn: Int64?) {
        self.init(whole: UInt64(bitPattern: wholeColumn), garment: garmentColumn.map { UInt64(bitPattern: $0) })
    }
}
