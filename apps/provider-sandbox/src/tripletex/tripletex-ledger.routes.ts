import type { Request, RequestHandler, Response, Router } from 'express';
import { queryBool, queryString, receiptUpload } from '../shared/http';
import { buildVoucher } from './tripletex-booking';
import { sendNotFound, sendTripletexError, sendValidation } from './tripletex-errors';
import { callOf, dateRangeOf, idParam, sendList, sendValue } from './tripletex-http';
import { seededIndexOf, seededRange, seededVoucher } from './tripletex-ledger';
import type { TxAccount, TxPosting, TxVoucher } from './tripletex-model';
import type { TripletexState } from './tripletex-state';

/** "Valid document formats are PDF, PNG, JPEG and TIFF" (the upload operation's summary). */
const ACCEPTED_RECEIPTS = ['application/pdf', 'image/png', 'image/jpeg', 'image/tiff'];

/** The type a file's first bytes show, as far as receipts go; undefined for anything else. */
function sniff(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 12).toString('latin1');
  if (bytes.subarray(0, 1024).includes('%PDF-')) return 'application/pdf';
  if (head.startsWith('\x89PNG\r\n\x1a\n')) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (head.startsWith('II*\x00') || head.startsWith('MM\x00*')) return 'image/tiff';
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  if (head.slice(4, 8) === 'ftyp') return 'image/heic';
  return undefined;
}

function numberList(raw: string | undefined): number[] | undefined {
  if (!raw) return undefined;
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
}

/** The company's vouchers in [from, to) that are in the ledger: seeded first, then bookings (id order). */
function vouchersInRange(
  state: TripletexState,
  res: Response,
  from: string,
  to: string,
): { total: number; at: (i: number) => TxVoucher } {
  const { company } = callOf(res);
  const range = seededRange(company, from, to);
  const uploads = state.uploadsOf(company.index);
  const booked = state.bookingsOf(company.index).filter((v) => v.inLedger && v.date >= from && v.date < to);
  const seededCount = range.to - range.from;
  return {
    total: seededCount + booked.length,
    at: (i) => (i < seededCount ? seededVoucher(company, range.from + i, uploads) : booked[i - seededCount]),
  };
}

function findVoucher(state: TripletexState, res: Response, id: number): TxVoucher | undefined {
  const { company } = callOf(res);
  const seededIndex = seededIndexOf(company, id);
  if (seededIndex !== undefined) return seededVoucher(company, seededIndex, state.uploadsOf(company.index));
  return state.bookingById(company.index, id);
}

export function registerLedgerRoutes(router: Router, state: TripletexState): void {
  router.get('/ledger/account', (req, res) => {
    const { company, serializer } = callOf(res);
    const numbers = numberList(queryString(req, 'number'));
    const ids = numberList(queryString(req, 'id'));
    const isInactive = queryBool(req, 'isInactive');
    const isBankAccount = queryBool(req, 'isBankAccount');
    const accounts = company.accounts.filter(
      (a) =>
        (!numbers || numbers.includes(a.number)) &&
        (!ids || ids.includes(a.id)) &&
        (isInactive === undefined || a.rules.isInactive === isInactive) &&
        (isBankAccount === undefined || a.isBankAccount === isBankAccount),
    );
    sendList(
      req,
      res,
      accounts.length,
      (i) => serializer.account(accounts[i]),
      `account:${company.id}:${req.originalUrl}`,
    );
  });

  router.get('/ledger/account/:id', (req, res) => {
    const id = idParam(req, res, 'Account');
    if (id === undefined) return;
    const { company, serializer } = callOf(res);
    const account = company.account(id);
    if (!account) return sendNotFound(res, `Account ${id}`);
    sendValue(req, res, serializer.account(account));
  });

  router.get('/ledger/vatType', (req, res) => {
    const { company, serializer } = callOf(res);
    const numbers = queryString(req, 'number')
      ?.split(',')
      .map((n) => n.trim());
    const vatTypes = company.vatTypes.filter((v) => !numbers || numbers.includes(v.number));
    sendList(
      req,
      res,
      vatTypes.length,
      (i) => serializer.vatType(vatTypes[i]),
      `vatType:${company.id}:${req.originalUrl}`,
    );
  });

  router.get('/ledger/vatType/:id', (req, res) => {
    const id = idParam(req, res, 'VatType');
    if (id === undefined) return;
    const { company, serializer } = callOf(res);
    const vatType = company.vatType(id);
    if (!vatType) return sendNotFound(res, `VatType ${id}`);
    sendValue(req, res, serializer.vatType(vatType));
  });

  router.get('/ledger/voucherType', (req, res) => {
    const { company, serializer } = callOf(res);
    // `name`: "Containing", whatever the letter case.
    const name = queryString(req, 'name')?.toLowerCase();
    const voucherTypes = company.voucherTypes.filter((v) => !name || v.name.toLowerCase().includes(name));
    sendList(
      req,
      res,
      voucherTypes.length,
      (i) => serializer.voucherType(voucherTypes[i]),
      `voucherType:${company.id}:${req.originalUrl}`,
    );
  });

  router.get('/ledger/voucherType/:id', (req, res) => {
    const id = idParam(req, res, 'VoucherType');
    if (id === undefined) return;
    const { company, serializer } = callOf(res);
    const voucherType = company.voucherType(id);
    if (!voucherType) return sendNotFound(res, `VoucherType ${id}`);
    sendValue(req, res, serializer.voucherType(voucherType));
  });

  router.get(/^\/ledger\/voucher\/(?:>|%3E)externalVoucherNumber$/i, (req, res) => {
    const { company, serializer } = callOf(res);
    const wanted = queryString(req, 'externalVoucherNumber');
    const matches = state
      .bookingsOf(company.index)
      .filter((v) => v.externalVoucherNumber !== null && (wanted === undefined || v.externalVoucherNumber === wanted));
    sendList(
      req,
      res,
      matches.length,
      (i) => serializer.voucher(matches[i]),
      `ext:${company.id}:${wanted ?? ''}:${matches.length}`,
    );
  });

  router.get('/ledger/voucher', (req, res) => {
    const range = dateRangeOf(req, res, 'dateFrom', 'dateTo');
    if (!range) return;
    const { company, serializer } = callOf(res);
    const vouchers = vouchersInRange(state, res, range.from, range.to);
    const number = queryString(req, 'number');
    if (number !== undefined) {
      const list: TxVoucher[] = [];
      for (let i = 0; i < vouchers.total; i++) {
        const voucher = vouchers.at(i);
        if (String(voucher.number) === number) list.push(voucher);
      }
      sendList(req, res, list.length, (i) => serializer.voucher(list[i]), `voucher:${company.id}:${req.originalUrl}`);
      return;
    }
    const digest = `voucher:${company.id}:${range.from}:${range.to}:${state.bookingsOf(company.index).length}`;
    sendList(req, res, vouchers.total, (i) => serializer.voucher(vouchers.at(i)), digest);
  });

  router.get('/ledger/voucher/:id', (req, res) => {
    const id = idParam(req, res, 'Voucher');
    if (id === undefined) return;
    const voucher = findVoucher(state, res, id);
    if (!voucher) return sendNotFound(res, `Voucher ${id}`);
    sendValue(req, res, callOf(res).serializer.voucher(voucher));
  });

  router.post('/ledger/voucher', (req, res) => {
    const { company, serializer } = callOf(res);
    const sequence = state.nextBookingSequence(company.index);
    const inLedger = queryBool(req, 'sendToLedger') !== false;
    const result = buildVoucher(
      company,
      req.body,
      { voucherId: company.bookedVoucherId(sequence), number: company.ledger.count + sequence },
      inLedger,
    );
    if (!result.ok) return sendValidation(res, result.message, result.validationMessages);
    state.addBooking(company.index, result.voucher);
    sendValue(req, res, serializer.voucher(result.voucher), 201);
  });

  router.post('/ledger/voucher/:id/attachment', uploadReceipt(state));

  router.get('/ledger/posting', (req, res) => {
    const range = dateRangeOf(req, res, 'dateFrom', 'dateTo');
    if (!range) return;
    const { company, serializer } = callOf(res);
    const accountId = numberList(queryString(req, 'accountId'));
    const parties = {
      supplierId: numberList(queryString(req, 'supplierId')),
      employeeId: numberList(queryString(req, 'employeeId')),
      departmentId: numberList(queryString(req, 'departmentId')),
    };
    const partyMatches = (posting: TxPosting): boolean =>
      (Object.keys(parties) as (keyof typeof parties)[]).every((key) => {
        const wanted = parties[key];
        const id = posting[key];
        return !wanted || (id !== null && wanted.includes(id));
      });
    const vouchers = vouchersInRange(state, res, range.from, range.to);
    const postings: { voucher: TxVoucher; index: number }[] = [];
    for (let i = 0; i < vouchers.total; i++) {
      const voucher = vouchers.at(i);
      voucher.postings.forEach((posting, index) => {
        if ((!accountId || accountId.includes(posting.accountId)) && partyMatches(posting)) {
          postings.push({ voucher, index });
        }
      });
    }
    sendList(
      req,
      res,
      postings.length,
      (i) => serializer.posting(postings[i].voucher, postings[i].voucher.postings[postings[i].index]),
      `posting:${company.id}:${req.originalUrl}:${postings.length}`,
    );
  });

  router.get('/balanceSheet', (req, res) => {
    const range = dateRangeOf(req, res, 'dateFrom', 'dateTo');
    if (!range) return;
    const { company, serializer } = callOf(res);
    const numberFrom = Number(queryString(req, 'accountNumberFrom') ?? 0);
    const numberTo = Number(queryString(req, 'accountNumberTo') ?? 99_999);
    const balanceIn = new Map<number, number>();
    const balanceChange = new Map<number, number>();
    const add = (voucher: TxVoucher): void => {
      const target = voucher.date < range.from ? balanceIn : balanceChange;
      for (const posting of voucher.postings)
        target.set(posting.accountId, (target.get(posting.accountId) ?? 0) + posting.amount);
    };
    const seeded = seededRange(company, '0000-01-01', range.to);
    const uploads = state.uploadsOf(company.index);
    for (let i = seeded.from; i < seeded.to; i++) add(seededVoucher(company, i, uploads));
    for (const voucher of state.bookingsOf(company.index))
      if (voucher.inLedger && voucher.date < range.to) add(voucher);
    const rows = company.accounts.filter(
      (account: TxAccount) =>
        account.number >= numberFrom &&
        account.number <= numberTo &&
        ((balanceIn.get(account.id) ?? 0) !== 0 || (balanceChange.get(account.id) ?? 0) !== 0),
    );
    sendList(
      req,
      res,
      rows.length,
      (i) =>
        serializer.balanceRow(
          rows[i],
          balanceIn.get(rows[i].id) ?? 0,
          balanceChange.get(rows[i].id) ?? 0,
          range.from,
          range.to,
        ),
      `balance:${company.id}:${req.originalUrl}:${state.bookingsOf(company.index).length}`,
    );
  });
}

/** `POST /ledger/voucher/{id}/attachment`, multipart field `file` (PDF, PNG, JPEG, TIFF). */
function uploadReceipt(state: TripletexState): RequestHandler {
  const single = receiptUpload.single('file');
  return (req: Request, res: Response) => {
    const id = idParam(req, res, 'Voucher');
    if (id === undefined) return;
    single(req, res, (error: unknown) => {
      if (error) {
        sendValidation(res, 'Validering feilet.', [
          { field: 'file', message: `Ugyldig opplasting: ${(error as Error).message}` },
        ]);
        return;
      }
      const { company, serializer } = callOf(res);
      const voucher = findVoucher(state, res, id);
      if (!voucher) return sendNotFound(res, `Voucher ${id}`);
      const file = req.file;
      if (!file) {
        sendValidation(res, 'Validering feilet.', [
          { field: 'file', message: 'Filen mangler (multipart-felt «file»).' },
        ]);
        return;
      }
      // Tripletex converts what it takes to PDF; the content decides, not the name or the declared type.
      const mimeType = sniff(file.buffer);
      if (!mimeType || !ACCEPTED_RECEIPTS.includes(mimeType)) {
        sendTripletexError(
          res,
          422,
          15000,
          'Ugyldig filformat. Gyldige formater er PDF, PNG, JPEG og TIFF.',
          `Unsupported media type ${mimeType ?? file.mimetype}`,
          [{ field: 'file', message: 'Ugyldig filformat.' }],
        );
        return;
      }
      const size = (voucher.attachment?.size ?? 0) + file.size;
      const document = {
        id: voucher.attachment?.id ?? state.nextDocumentId(),
        fileName: voucher.attachment?.fileName ?? file.originalname.replace(/\.[^.]+$/, '.pdf'),
        size,
        mimeType: 'application/pdf',
      };
      const booked = state.bookingById(company.index, voucher.id);
      if (booked) {
        booked.attachment = document;
        booked.version += 1;
        sendValue(req, res, serializer.voucher(booked));
      } else {
        state.recordUpload(company.index, voucher.id, document);
        sendValue(req, res, serializer.voucher({ ...voucher, attachment: document, version: voucher.version + 1 }));
      }
    });
  };
}
