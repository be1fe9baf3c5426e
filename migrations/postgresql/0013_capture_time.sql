-- When each photo was taken, from its EXIF, as SQLite's step 13 keeps it (see
-- migrations/0013_capture_time.sql): taken_at the camera's clock in milliseconds since 1970
-- read as if UTC, taken_offset its offset from UTC in minutes (NULL when the file does not
-- say), capture_read 1 once a file of the image was read for it.
ALTER TABLE images ADD COLUMN taken_at bigint;
ALTER TABLE images ADD COLUMN taken_offset bigint CHECK (taken_offset BETWEEN -1440 AND 1440);
ALTER TABLE images ADD COLUMN capture_read bigint NOT NULL DEFAULT 0 CHECK (capture_read IN (0, 1));
