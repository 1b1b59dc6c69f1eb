import sharp from 'sharp';
import type { BookingAction, BookingDetail, RequestDetail } from '../../shared/lifecycle';
import type { Booking, DeliveryRequest } from '../../shared/marketplace';
import type { CallOptions, CallResult } from './harness';
import { requestBody } from './marketplace';

type Caller = <T = unknown>(method: string, path: string, opts?: CallOptions) => Promise<CallResult<T>>;
type Account = { token: string; user: { id: string } };
type SignUp = (fullName?: string) => Promise<Account & { email: string }>;

export interface PhotoFile {
  bytes: Uint8Array;
  type?: string;
  name?: string;
}

/** A picture made on the spot (no binary fixtures): a gradient-free solid image of the given size and format. */
export async function testImage(
  format: 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff',
  width = 400,
  height = 300,
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#4a7f3b' } })
    .toFormat(format)
    .toBuffer();
}

/** A JPEG as a phone writes it: camera make, an orientation and GPS coordinates in its EXIF. */
export async function jpegWithGps(width = 3000, height = 2000): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'FieldCam', Model: 'Handoff 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .toBuffer();
}

/** The EXIF GPS-IFD pointer tag (0x8825) in either byte order: present means the file carries a location. */
export const hasGpsTag = (exif: Buffer | undefined) =>
  !!exif && (exif.includes(Buffer.from([0x25, 0x88])) || exif.includes(Buffer.from([0x88, 0x25])));

/** Walks bookings through their lifecycle over the API, as the two browsers would. */
export function lifecycleHelpers(call: Caller, signUpAndIn: SignUp) {
  async function postRequest(token: string, title = 'Feed sacks'): Promise<DeliveryRequest> {
    const res = await call<DeliveryRequest>('POST', '/requests', { cookie: token, body: requestBody({ title }) });
    if (res.status !== 201) throw new Error(`request not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function offer(token: string, requestId: string): Promise<Booking> {
    const res = await call<Booking>('POST', '/bookings', { cookie: token, body: { request_id: requestId } });
    if (res.status !== 201) throw new Error(`offer refused: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /**
   * POST /bookings/:id/<action>; decline, withdraw, pickup and receive send `{}` unless told otherwise, choose pays
   * with the test card (the requests here carry compensation).
   */
  const act = (
    token: string,
    bookingId: string,
    action: BookingAction,
    body: unknown = action === 'choose' ? { card: TEST_CARD } : {},
  ) => call<BookingDetail>('POST', `/bookings/${bookingId}/${action}`, { cookie: token, body });

  function completeForm(code: string, photo?: PhotoFile): FormData {
    const form = new FormData();
    form.set('code', code);
    if (photo)
      form.set(
        'photo',
        new File([photo.bytes as Uint8Array<ArrayBuffer>], photo.name ?? 'handoff.jpg', {
          type: photo.type ?? 'image/jpeg',
        }),
      );
    return form;
  }

  const complete = (token: string, bookingId: string, code: string, photo?: PhotoFile) =>
    call<BookingDetail>('POST', `/bookings/${bookingId}/complete`, {
      cookie: token,
      form: completeForm(code, photo),
    });

  const booking = (token: string, id: string) => call<BookingDetail>('GET', `/bookings/${id}`, { cookie: token });
  const request = (token: string, id: string) => call<RequestDetail>('GET', `/requests/${id}`, { cookie: token });

  /** A requester, `drivers` drivers, one request and one offer from each driver (oldest first). */
  async function story(drivers = 2, title = 'Feed sacks') {
    const requester = await signUpAndIn('Ana Diaz');
    const people = [];
    for (let i = 0; i < drivers; i++) people.push(await signUpAndIn(`Driver ${i + 1}`));
    const req = await postRequest(requester.token, title);
    const offers = [];
    for (const d of people) offers.push(await offer(d.token, req.id));
    return { requester, drivers: people, request: req, offers };
  }

  /** A confirmed booking: the requester chose the first of `drivers` offers. Returns the delivery code too. */
  async function confirmed(drivers = 1, title = 'Feed sacks') {
    const s = await story(drivers, title);
    const chosen = await act(s.requester.token, s.offers[0]!.id, 'choose');
    if (chosen.status !== 200) throw new Error(`choose refused: ${chosen.status} ${JSON.stringify(chosen.body)}`);
    const code = chosen.body.delivery_code;
    if (!code) throw new Error('no delivery code for the requester');
    return { ...s, driver: s.drivers[0]!, bookingId: s.offers[0]!.id, code };
  }

  /** A 6-digit code that is not `code`. */
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  return { postRequest, offer, act, complete, completeForm, booking, request, story, confirmed, wrongCode };
}

/** The embedded test provider's card that succeeds (src/shared/payments.ts TEST_CARDS), as the card form sends it. */
export const TEST_CARD = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', zip: '05401' } as const;
/** Its card that is declined. */
export const DECLINED_CARD = { ...TEST_CARD, number: '4000 0000 0000 0002' } as const;
