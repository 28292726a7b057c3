import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { patch } from '../api';
import type { Customer } from '../types';
import { Done, ErrorMessage, Field, WriteButton } from './ui';

/** One editable field of PATCH /customers/{id}: where the customer view holds it and where the request puts it. */
interface EditField {
  name: string;
  label: string;
  type?: 'email' | 'tel' | 'date';
  hint?: string;
  /** The path in the customer view and in the request body (they are the same). */
  path: string[];
}

const CONTACT: EditField[] = [
  { name: 'email', label: 'Email', type: 'email', path: ['email'], hint: 'Email and phone number change in separate saves' },
  { name: 'phoneNumber', label: 'Phone number', type: 'tel', path: ['phoneNumber'], hint: 'E.164, e.g. +14155550123' },
  { name: 'umaAddress', label: 'UMA address', path: ['umaAddress'], hint: "On the platform's UMA domain" },
];
const INDIVIDUAL: EditField[] = [
  { name: 'fullName', label: 'Full name', path: ['fullName'] },
  { name: 'birthDate', label: 'Birth date', type: 'date', path: ['birthDate'] },
  { name: 'nationality', label: 'Nationality', path: ['nationality'], hint: 'Two-letter country code, e.g. US' },
];
const BUSINESS: EditField[] = [
  { name: 'legalName', label: 'Legal name', path: ['businessInfo', 'legalName'] },
  { name: 'doingBusinessAs', label: 'Doing business as', path: ['businessInfo', 'doingBusinessAs'] },
  { name: 'registrationNumber', label: 'Registration number', path: ['businessInfo', 'registrationNumber'] },
];
const ADDRESS: EditField[] = [
  { name: 'line1', label: 'Address line 1', path: ['address', 'line1'] },
  { name: 'line2', label: 'Address line 2', path: ['address', 'line2'] },
  { name: 'city', label: 'City', path: ['address', 'city'] },
  { name: 'state', label: 'State or region', path: ['address', 'state'] },
  { name: 'postalCode', label: 'Postal code', path: ['address', 'postalCode'] },
  { name: 'country', label: 'Country', path: ['address', 'country'], hint: 'Two-letter country code' },
];

const valueAt = (c: Customer, path: string[]): string => {
  let v: unknown = c;
  for (const key of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
};

function put(body: Record<string, unknown>, path: string[], value: unknown): void {
  let target = body;
  for (const key of path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
  target[path[path.length - 1]!] = value;
}

/**
 * The request for what the form changed, and only that: the API replaces a list and judges an
 * address whole, so a changed currency list is sent whole and a changed address with all its lines.
 */
export function customerUpdate(c: Customer, form: FormData): Record<string, unknown> | null {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const body: Record<string, unknown> = { customerType: c.customerType };
  let changed = false;
  for (const f of [...CONTACT, ...(c.customerType === 'BUSINESS' ? BUSINESS : INDIVIDUAL)]) {
    if (text(f.name) === valueAt(c, f.path)) continue;
    put(body, f.path, text(f.name));
    changed = true;
  }
  if (ADDRESS.some((f) => text(f.name) !== valueAt(c, f.path))) {
    const address = Object.fromEntries(ADDRESS.filter((f) => text(f.name) !== '').map((f) => [f.name, text(f.name)]));
    body.address = address;
    changed = true;
  }
  const currencies = text('currencies')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((code) => code.toUpperCase());
  if (currencies.join(',') !== ((c.currencies as string[] | undefined) ?? []).join(',')) {
    body.currencies = currencies;
    changed = true;
  }
  return changed ? body : null;
}

/** PATCH /customers/{id} with the fields its schema accepts for the customer's type. */
export function CustomerEdit({ customer: c }: { customer: Customer }) {
  const queryClient = useQueryClient();
  const [unchanged, setUnchanged] = useState(false);
  const edit = useMutation({
    mutationFn: (body: Record<string, unknown>) => patch<Customer | { payloadToSign: string }>(`/customers/${encodeURIComponent(c.id)}`, body),
    onSuccess: (answer) => {
      if ('id' in answer) queryClient.setQueryData(['customer', c.id], answer);
    },
  });
  const input = (f: EditField) => (
    <Field key={f.name} label={f.label} hint={f.hint}>
      {(id) => <input id={id} name={f.name} type={f.type ?? 'text'} defaultValue={valueAt(c, f.path)} />}
    </Field>
  );
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const body = customerUpdate(c, new FormData(e.currentTarget));
    setUnchanged(body === null);
    if (body) edit.mutate(body);
  }
  return (
    <form key={String(c.updatedAt ?? '')} onSubmit={submit} aria-label="Edit the customer">
      <fieldset>
        <legend>Contact</legend>
        {CONTACT.map(input)}
        <Field label="Currencies" hint="Comma-separated; replaces the whole list">
          {(id) => <input id={id} name="currencies" defaultValue={((c.currencies as string[] | undefined) ?? []).join(', ')} />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>{c.customerType === 'BUSINESS' ? 'Business' : 'Person'}</legend>
        {(c.customerType === 'BUSINESS' ? BUSINESS : INDIVIDUAL).map(input)}
      </fieldset>
      <fieldset>
        <legend>Address</legend>
        {ADDRESS.map(input)}
      </fieldset>
      <WriteButton permission="MANAGE" disabled={edit.isPending}>
        Save
      </WriteButton>
      {unchanged && <p role="status">Nothing changed.</p>}
      {edit.isSuccess &&
        ('payloadToSign' in edit.data ? (
          <Done>The change needs the customer's wallet signature (202): it is not made until the customer signs it.</Done>
        ) : (
          <Done>Saved.</Done>
        ))}
      <ErrorMessage error={edit.error} />
    </form>
  );
}
