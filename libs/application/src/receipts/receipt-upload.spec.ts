import { createHash } from 'node:crypto';
import { ValidationFailed } from '@app/domain';
import { receiptPdf } from '@app/testing';
import { decodeReceipt } from './receipt-upload';

const FILES: Record<string, Buffer> = {
  'application/pdf': receiptPdf(),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
  'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
  'image/gif': Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
  'image/tiff': Buffer.from('II*\x00\x08\x00\x00\x00', 'latin1'),
};

describe('decodeReceipt', () => {
  it.each(Object.entries(FILES))('accepts a %s file and describes it by size and SHA-256', (contentType, bytes) => {
    const decoded = decodeReceipt({ filename: 'r', contentType, dataBase64: bytes.toString('base64') }, 1024);

    expect(Buffer.from(decoded.bytes)).toEqual(bytes);
    expect(decoded.metadata).toEqual({
      filename: 'r',
      contentType,
      sizeBytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  });

  it('refuses HTML and executable polyglots that carry a PDF header after their own', () => {
    for (const head of ['\r\n', '<html><body>', '<!DOCTYPE html>', 'MZ\x90\x00', '#!/bin/sh\n']) {
      const bytes = Buffer.concat([Buffer.from(head, 'latin1'), FILES['application/pdf']!]);
      expect(() =>
        decodeReceipt(
          { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: bytes.toString('base64') },
          1024,
        ),
      ).toThrow(/is not a application\/pdf file/);
    }
  });

  it('refuses a file whose content is another type than declared', () => {
    const png = FILES['image/png']!.toString('base64');
    for (const contentType of ['application/pdf', 'image/jpeg', 'image/gif', 'image/webp', 'image/tiff']) {
      expect(() => decodeReceipt({ filename: 'r', contentType, dataBase64: png }, 1024)).toThrow(ValidationFailed);
    }
  });

  it('refuses URL-safe base64, embedded whitespace, missing padding and non-canonical padding bits', () => {
    for (const dataBase64 of ['-_-_', 'JVBE\nRi0x', 'JVBERi0', 'JVBERi1=', 'JVBE=Ri0', '!!!!']) {
      expect(() => decodeReceipt({ filename: 'r.pdf', contentType: 'application/pdf', dataBase64 }, 1024)).toThrow(
        ValidationFailed,
      );
    }
  });

  it('accepts exactly the limit and refuses one byte more', () => {
    const bytes = Buffer.concat([FILES['application/pdf']!, Buffer.alloc(17)]);
    const upload = { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: bytes.toString('base64') };

    expect(decodeReceipt(upload, bytes.length).metadata.sizeBytes).toBe(bytes.length);
    expect(() => decodeReceipt(upload, bytes.length - 1)).toThrow(ValidationFailed);
  });

  it('judges the size from the length before decoding, and decodes megabytes in linear time', () => {
    // 3.5 MiB overflowed the stack of the earlier regular expression.
    const bytes = Buffer.concat([FILES['application/pdf']!, Buffer.alloc(3.5 * 1024 * 1024)]);
    const upload = { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: bytes.toString('base64') };
    expect(decodeReceipt(upload, 7 * 1024 * 1024).metadata.sizeBytes).toBe(bytes.length);

    // Too long to be within the limit whatever it holds: refused on its length, not as malformed.
    const tooLong = { ...upload, dataBase64: `${'!'.repeat(upload.dataBase64.length)}` };
    expect(() => decodeReceipt(tooLong, 1024)).toThrow(/must be at most 1024 bytes decoded/);
  });
});
