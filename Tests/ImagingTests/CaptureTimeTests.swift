import Foundation
import Imaging
import Testing

/// When a photo was taken, read from EXIF (DateTimeOriginal and OffsetTimeOriginal
/// in the Exif IFD) by the header alone, as import reads it.
@Suite struct CaptureTimeTests {
    static let jpeg = try! JPEGEncoder(quality: 85).encode(Bitmap(width: 16, height: 12, channels: 3,
                                                                   pixels: [UInt8](repeating: 128, count: 16 * 12 * 3)))

    func captured(_ date: String, offset: String? = nil, littleEndian: Bool = false) throws -> CaptureTime? {
        let tiff = Exif.tiffBlock(dateTimeOriginal: date, offsetTimeOriginal: offset, littleEndian: littleEndian)
        return try ImageDecoder().header(of: Exif.inserting(tiff: tiff, intoJPEG: Self.jpeg)).captureTime
    }

    @Test(arguments: [false, true])
    func dateAndOffsetAreReadInEitherByteOrder(littleEndian: Bool) throws {
        let taken = try #require(try captured("2024:05:01 14:30:07", offset: "+02:00", littleEndian: littleEndian))
        #expect(taken.text == "2024-05-01T14:30:07+02:00")
        #expect(taken.offsetMinutes == 120)
        #expect(taken.clock == Date(timeIntervalSince1970: 1_714_573_807))
        #expect(try captured("2023:12:31 23:59:59", offset: "-05:30", littleEndian: littleEndian)?.text == "2023-12-31T23:59:59-05:30")
        let local = try #require(try captured("2021:02:28 08:00:00", littleEndian: littleEndian))
        #expect(local.offsetMinutes == nil && local.text == "2021-02-28T08:00:00")
        // The picture itself decodes as before, with the time kept beside it.
        let decoded = try ImageDecoder().decode(Exif.inserting(tiff: Exif.tiffBlock(dateTimeOriginal: "2024:05:01 14:30:07"),
                                                              intoJPEG: Self.jpeg))
        #expect(decoded.width == 16 && decoded.captureTime?.text == "2024-05-01T14:30:07")
    }

    /// A clock never set, a date that is no date, or an offset that cannot be read: no time
    /// (or no offset), never a wrong one, and never a refused photo.
    @Test(arguments: ["0000:00:00 00:00:00", "    :  :     :  :  ", "2024:02:30 10:00:00", "2024:13:01 10:00:00",
                      "2024:05:01 25:00:00", "yesterday", ""])
    func datesThatAreNoDatesGiveNone(date: String) throws {
        #expect(try captured(date) == nil)
    }

    /// A time another program stored before 1582 (the catalogue takes the years 1 to 9999) is
    /// written on the calendar of every other time, not Foundation's Julian one (0001-01-03).
    @Test func aTimeBeforeTheGregorianChangeIsWrittenOnTheProlepticCalendar() {
        #expect(CaptureTime(clock: Date(timeIntervalSince1970: -62_135_596_800), offsetMinutes: nil).text
                == "0001-01-01T00:00:00")
        #expect(CaptureTime(clock: Date(timeIntervalSince1970: -12_219_292_800.5), offsetMinutes: 60).text
                == "1582-10-14T23:59:59+01:00")
        #expect(CaptureTime(clock: Date(timeIntervalSince1970: 253_402_300_799.999), offsetMinutes: -840).text
                == "9999-12-31T23:59:59-14:00")
        #expect(CaptureTime(exifDate: "1900:02:29 00:00:00", offset: nil) == nil)
        #expect(CaptureTime(exifDate: "2000:02:29 00:00:00", offset: nil)?.text == "2000-02-29T00:00:00")
    }

    @Test func unreadableOffsetsAreNoOffset() throws {
        #expect(try captured("2024:05:01 14:30:00", offset: "+2")?.text == "2024-05-01T14:30:00")
        #expect(try captured("2024:05:01 14:30:00", offset: "+15:00")?.offsetMinutes == nil)
        // A sign where a digit goes was read as a number: `--9:59` as +08:01, `+-1:00` as -01:00.
        for malformed in ["--9:59", "+-1:00", "+ 1:00", "+01:+5", "+1a:00"] {
            #expect(try captured("2024:05:01 14:30:00", offset: malformed)?.offsetMinutes == nil, "\(malformed)")
        }
        #expect(try captured("2024:05:01 14:30:00", offset: "-05:30")?.offsetMinutes == -330)
    }

    @Test func damagedExifGivesNone() throws {
        var tiff = Exif.tiffBlock(dateTimeOriginal: "2024:05:01 14:30:00")
        #expect(Exif.captureTime(inTIFF: tiff) != nil)
        // The Exif IFD pointer past the end, then the date's offset past the end.
        var pointer = tiff
        pointer[18...21] = [0x7F, 0xFF, 0xFF, 0xFF]
        #expect(Exif.captureTime(inTIFF: pointer) == nil)
        tiff[34...37] = [0x00, 0x00, 0xFF, 0xFF]
        #expect(Exif.captureTime(inTIFF: tiff) == nil)
        #expect(Exif.captureTime(inTIFF: [UInt8]()) == nil)
        #expect(try ImageDecoder().header(of: Self.jpeg).captureTime == nil)
    }

    /// A real photo (from the shared photo set, when it is there) whose EXIF has only
    /// `DateTime`, 2020:09:14 23:00:19, and an empty Exif IFD: `DateTime` is when the file was
    /// last changed (an editor writes it), not when the photo was taken, so it is no capture time.
    @Test func aFilesChangeTimeIsNotItsCaptureTime() throws {
        let path = "../shared/data/clothing-photos/train/longsleeve/3265bffb-aabf-4a7d-a2f9-a38a0a1d01ff.jpg"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let bytes = try ImageFile.read(path)
        #expect(bytes.count > 1000 && String(decoding: bytes.prefix(4096), as: UTF8.self).contains("2020:09:14 23:00:19"))
        #expect(try ImageDecoder().header(of: bytes).captureTime == nil)
    }
}
