-- When each photo was taken, from its EXIF (DateTimeOriginal, and OffsetTimeOriginal
-- where present), read at import. taken_at is the camera's clock as the file writes it,
-- in milliseconds since 1970 read as if UTC (a photo taken at 14:30 shows 14:30 wherever it
-- is looked at); taken_offset is that clock's offset from UTC in minutes, NULL when the file
-- does not say. Both NULL when the file has no capture time. capture_read is 1 once a file
-- of the image was read for it: images imported before this migration have 0 until
-- `wardrobe capture-times` reads it from one of their files still there.
ALTER TABLE images ADD COLUMN taken_at INTEGER;
ALTER TABLE images ADD COLUMN taken_offset INTEGER CHECK (taken_offset BETWEEN -1440 AND 1440);
ALTER TABLE images ADD COLUMN capture_read INTEGER NOT NULL DEFAULT 0 CHECK (capture_read IN (0, 1));
