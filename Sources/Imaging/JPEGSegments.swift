/// The marker segments of a JPEG stream before its image data: from the start of image
/// (SOI) up to and including the first start of scan (SOS), each as its marker and its
/// payload (the bytes after the length field). Every length is checked against the stream;
/// a damaged or cut segment list ends the walk, as the end of the image (EOI) does.
struct JPEGSegments: Sequence, IteratorProtocol {
    struct Segment {
        /// The byte after 0xFF: 0xE1 for APP1, 0xC0...0xCF for frame headers, 0xDA for SOS.
        var marker: UInt8
        var payload: ArraySlice<UInt8>
    }

    static let startOfScan: UInt8 = 0xDA
    static let endOfImage: UInt8 = 0xD9

    private let bytes: [UInt8]
    /// Where the next marker starts; nil once the walk has ended.
    private var offset: Int?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        offset = bytes.count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8 ? 2 : nil
    }

    mutating func next() -> Segment? {
        while let at = offset, at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xFF { offset = at + 1; continue }   // fill byte
            if marker == Self.endOfImage { break }
            // Markers without a length: restarts and TEM.
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset = at + 2; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { break }
            // The image data follows a scan header: nothing after it is a segment of this walk.
            offset = marker == Self.startOfScan ? nil : at + 2 + length
            return Segment(marker: marker, payload: bytes[(at + 4)..<(at + 2 + length)])
        }
        offset = nil
        return nil
    }
}
