import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

/** Sends a console sign-in link. */
export interface SignInMailer {
  /** `smtp` when a mail server is configured, `log` when links are written to the log */
  readonly kind: 'smtp' | 'log';
  send(to: string, link: string): Promise<void>;
}

/**
 * SMTP (nodemailer) when `smtpUrl` is set (CONSOLE_SMTP_URL, e.g. smtps://user:pass@host:465);
 * otherwise, as in the embedded default, the link is written to the log at info level, for the
 * operator to hand over.
 */
export function createSignInMailer(opts: { smtpUrl?: string; from?: string; logger?: FastifyBaseLogger }): SignInMailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    const from = opts.from ?? 'console@localhost';
    return {
      kind: 'smtp',
      async send(to, link) {
        await transport.sendMail({
          from,
          to,
          subject: 'Your sign-in link',
          text: `Sign in to the partner console with this link (it works once, within 15 minutes):\n\n${link}\n\nIf you did not ask for it, ignore this message.`,
        });
      },
    };
  }
  return {
    kind: 'log',
    async send(to, link) {
      opts.logger?.info({ console_email: to, console_link: link }, 'console sign-in link (no SMTP configured)');
    },
  };
}
