/// The SQL of every table, index and trigger the embedded migrations make, as digests by
/// type and name, so that a command about to write can see that a catalogue's schema is as
/// wardrobe wrote it without making one in memory to compare with: applying the migrations
/// to an in-memory database cost about 10 ms of CPU a process, nearly half of what `label`
/// of one image took. When a digest differs (a flipped bit, a migration added without
/// writing these again, or another SQLite's way of rewriting a table's text), the text is
/// compared with that of a catalogue made in memory, which is what decides.
/// `WrittenSchemaTests` holds this equal to what the migrations make, and prints the lines
/// to put here when it is not.
public enum WrittenSchema {
    /// The schema step the digests are of.
    public static let version = 30

    public static let digests: [String: UInt64] = [
        "index classifications_by_run": 0x3a53a584e8253e78,
        "index colour_corrections_by_image": 0x2bbd4b029be802b1,
        "index corrections_by_image": 0xa77aa664ac4949af,
        "index current_by_classification": 0x8347ec5d820637d8,
        "index current_by_effective_label_confidence": 0xf24ebcb3b6851983,
        "index current_corrected": 0xbb6f3606107747ca,
        "index dismissed_duplicates_by_other": 0x3a27830e34f1db0,
        "index file_leases_by_owner": 0xc99b9a75af7ff0aa,
        "index image_leases_by_owner": 0xb21a3b219364a692,
        "index image_paths_by_image_best": 0x802bd64174c519d8,
        "index images_by_colour": 0xb684ef8ae58a412c,
        "index images_by_effective_colour": 0x8e7692971effbca0,
        "index images_by_fingerprint": 0x60ccf50e830d3698,
        "table catalogue_counts": 0x72d2f4e011f0aa29,
        "table classifications": 0x7653dcf5a21d74fa,
        "table colour_corrections": 0xc1e275c2185455a7,
        "table colour_counts": 0x4a351381a7a05499,
        "table corrections": 0x6afa421cd91bd08,
        "table current_classifications": 0xc660958dcc24f2be,
        "table dismissed_duplicates": 0x706b95eceedd2950,
        "table failing_files": 0x9da4bde98f2acbba,
        "table file_leases": 0xa2605482768dbb7e,
        "table image_leases": 0xa3c2b4cacfa310fd,
        "table image_paths": 0x15ce33a5e850fd5a,
        "table images": 0x178b570f9f22fbd4,
        "table images_being_forgotten": 0xc66422e28d1e41c7,
        "table import_failures": 0xa86a701fd0c5b229,
        "table label_counts": 0x308f6f211429e08a,
        "table model_adoptions": 0x3058c85ca90c5ebe,
        "table model_learned_images": 0xc579422142f64f0d,
        "table models": 0x7ade91825ea3553e,
        "table prepared_tensors": 0x7d6a2af4ada23e98,
        "table retired_image_ids": 0x6fabe113428d91ea,
        "table runs": 0x940c6c9401109617,
        "table settings": 0x6088871ff61b6fc8,
        "trigger classifications_are_never_deleted": 0xb7c30baac1b636be,
        "trigger classifications_are_never_updated": 0x70a32f7c5b13c4a1,
        "trigger classifications_counted_on_delete": 0x62c753f4c09a5523,
        "trigger classifications_counted_on_insert": 0x7e039b2b1dcf5cd2,
        "trigger classifications_keep_current": 0x64fbe98ffe987f60,
        "trigger colour_corrections_reach_images": 0x5f4ea3e60fb68121,
        "trigger colour_counts_on_delete": 0x9017fd2af48152c7,
        "trigger colour_counts_on_insert": 0x9f7aa8a740f5f30d,
        "trigger colour_counts_on_update": 0x19f3085a5d0a19cd,
        "trigger corrections_counted_on_delete": 0x56b656b4044d807b,
        "trigger corrections_counted_on_insert": 0x9fd348906339ceca,
        "trigger corrections_reach_current": 0xd5c2623f2eba9299,
        "trigger failing_files_counted_on_delete": 0xb04ce4f1f721bf1d,
        "trigger failing_files_counted_on_insert": 0xb22042fbe398c1ec,
        "trigger image_ids_retired_on_delete": 0xd2454115c64ed0e,
        "trigger images_counted_on_delete": 0x69a2c952c8398bc8,
        "trigger images_counted_on_insert": 0x5398507342c49157,
        "trigger label_counts_on_delete": 0x76f0177f9c94aa8,
        "trigger label_counts_on_insert": 0xc9578878c14188c7,
        "trigger label_counts_on_update": 0x7e24c42462d6c618,
        "trigger missing_paths_counted": 0xe958503c11e407dc,
        "trigger paths_counted_on_delete": 0x3601b522deba07ad,
        "trigger paths_counted_on_insert": 0x1b216592458fd932,
        "trigger seen_paths_stop_failing": 0x4129a368742b7c2a,
        "trigger stored_paths_stop_failing": 0xb313befe52f71141,
    ]

    /// FNV-1a (64 bits) of the text's UTF-8: a bit flipped in it changes the digest.
    public static func digest(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
