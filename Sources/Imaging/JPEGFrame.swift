/// What a JPEG's frame header (SOFn) and first scan header (SOS) say about the memory its
/// decoder needs. A JPEG whose image data comes in more than one scan (every progressive
/// JPEG, and a sequential one whose first scan leaves components for later scans) is
/// decoded by libjpeg into a buffer of the whole image's DCT coefficients, whatever scale
/// the output is asked at: 2 bytes a sample of each component, where a single-scan JPEG is
/// decoded a row of blocks at a time. TurboJPEG 2.1 says neither how a file is coded nor
/// what it will allocate (TurboJPEG 3 has TJPARAM_PROGRESSIVE and TJPARAM_MAXMEMORY), so
/// the two headers are read here; TurboJPEG still reads and checks everything it decodes.
struct JPEGFrame {
    /// A component's sampling factors, 1...4 each.
    struct Component {
        var horizontal: Int
        var vertical: Int
    }

    var width: Int
    var height: Int
    /// SOF2 (Huffman) or SOF10 (arithmetic): the image comes in successive scans.
    var progressive = false
    var components: [Component]
    /// Components in the first scan; nil when the segments end before it.
    var firstScanComponents: Int?

    /// Nil when the stream has no readable frame header before its image data.
    init?(_ bytes: [UInt8]) {
        var segments = JPEGSegments(bytes)
        var frameHeader: ArraySlice<UInt8>?
        while frameHeader == nil, let segment = segments.next() {
            if Self.isFrameHeader(segment.marker) {
                frameHeader = segment.payload
                progressive = segment.marker == 0xC2 || segment.marker == 0xCA
            }
        }
        // P (1 byte), Y and X (2 each), Nf, then Nf times: id, sampling factors, table.
        guard let header = frameHeader, header.count >= 6 else { return nil }
        let at = header.startIndex, count = Int(header[at + 5])
        guard count > 0, header.count >= 6 + 3 * count else { return nil }
        height = Int(header[at + 1]) << 8 | Int(header[at + 2])
        width = Int(header[at + 3]) << 8 | Int(header[at + 4])
        components = (0..<count).map { index in
            let factors = header[at + 6 + 3 * index + 1]
            return Component(horizontal: Int(factors >> 4), vertical: Int(factors & 0x0F))
        }
        // The first scan header comes after the frame header; Ns is its first byte.
        while let segment = segments.next() {
            if segment.marker == JPEGSegments.startOfScan { firstScanComponents = segment.payload.first.map(Int.init) }
        }
    }

    /// SOF0...SOF15 but DHT (0xC4), JPG (0xC8) and DAC (0xCC), which share the range.
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Whether libjpeg decodes through a buffer of the whole image's coefficients (its
    /// `has_multiple_scans`): a progressive frame, or a first scan without every component.
    var hasMultipleScans: Bool {
        progressive || (firstScanComponents.map { $0 < components.count } ?? false)
    }

    /// The bytes of that buffer, as libjpeg sizes it (jdinput.c and jdcoefct.c): each
    /// component's 8x8 blocks after subsampling, their counts across and down rounded up to
    /// its sampling factors, 64 coefficients of 2 bytes a block. Zero for a single scan.
    var coefficientBytes: Int {
        guard hasMultipleScans else { return 0 }
        let maxHorizontal = components.map { max(1, $0.horizontal) }.max() ?? 1
        let maxVertical = components.map { max(1, $0.vertical) }.max() ?? 1
        func roundedUp(_ value: Int, _ multiple: Int) -> Int { (value + multiple - 1) / multiple * multiple }
        return components.reduce(0) { total, component in
            let horizontal = max(1, component.horizontal), vertical = max(1, component.vertical)
            let across = (width * horizontal + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
            let down = (height * vertical + 8 * maxVertical - 1) / (8 * maxVertical)
            return total + roundedUp(across, horizontal) * roundedUp(down, vertical) * 64 * 2
        }
    }
}
