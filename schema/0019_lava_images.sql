-- perflab schema, version 19: LAVA labs boot kernels from the image store
-- (issue 31). A lab's host is a test-only host of the build machinery
-- (hosts.role 'test'): its jobs are handed out only once their image is
-- stored, and builders get the build tasks. Its config hashes (the
-- host_configs a runner registers) are the lab's own when the admin gave
-- them, else those of the builders carrying the lab's label.

-- JSON {name: config hash} as given when the lab was added; NULL: the
-- label's builders' (daemon/lab/lava.h).
ALTER TABLE lava_labs ADD COLUMN configs TEXT;
UPDATE hosts SET role = 'test' WHERE id IN (SELECT host_id FROM lava_labs);
