/**
 * Writes web/public/circular-letter.pdf, the circular letter that signed-in facility and conformity-body users are
 * offered once (spec 01 section 1). Run: `npx tsx scripts/make-circular-letter.ts`. The PDF is committed; run this
 * again only when the text changes. Fonts are the self-hosted ones the web app uses.
 */
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = `${ROOT}web/public/circular-letter.pdf`;
const font = (pkg: string, file: string) => `${ROOT}node_modules/@fontsource/${pkg}/files/${file}`;
const FONTS = {
  ar: font('noto-sans-arabic', 'noto-sans-arabic-arabic-400-normal.woff'),
  arBold: font('noto-sans-arabic', 'noto-sans-arabic-arabic-700-normal.woff'),
  en: font('inter', 'inter-latin-400-normal.woff'),
  enBold: font('inter', 'inter-latin-700-normal.woff'),
};
const GREEN = '#0b5e40';

const en = {
  title: 'Circular letter to facilities and conformity bodies',
  subject: 'Subject: submitting Halal certification services through the national portal',
  body: [
    'The National Halal Center informs all domestic facilities, foreign facilities and conformity bodies that every Halal certification service is now submitted and followed through the national Halal certification portal.',
    '1. Certificate requests, renewals, adding products, shipment certificates and Halal-mark requests are accepted only through the portal.',
    '2. Each facility keeps its data, addresses, products and authorised users up to date; the main user of a facility or conformity body manages delegations to sub users.',
    '3. Requests returned for completion must be corrected within the period shown on the request; drafts that are not submitted are deleted automatically.',
    '4. Every certificate and Halal mark issued through the portal carries a QR code that anyone can scan to verify its status.',
    'For questions, use the "Contact us" page of the portal.',
  ],
  closing: 'National Halal Center',
};

// The Arabic subset of the font has no Latin punctuation, so the Arabic text uses Arabic conventions without it
// (ordinal words for items, the Arabic comma, "بشأن" for the subject line).
const ar = {
  title: 'تعميم إلى المنشآت وجهات تقويم المطابقة',
  subject: 'بشأن تقديم خدمات شهادات الحلال عبر البوابة الوطنية',
  body: [
    'يحيط المركز الوطني للحلال جميع المنشآت المحلية والأجنبية وجهات تقويم المطابقة علمًا بأن جميع خدمات شهادات الحلال تُقدَّم وتُتابَع الآن عبر البوابة الوطنية لشهادات الحلال',
    'أولًا، لا تُقبل طلبات الشهادات وتجديدها وإضافة المنتجات وشهادات الإرساليات وطلبات علامة الحلال إلا عبر البوابة',
    'ثانيًا، تلتزم كل منشأة بتحديث بياناتها وعناوينها ومنتجاتها والمستخدمين المفوضين لديها، ويتولى المستخدم الرئيسي للمنشأة أو جهة تقويم المطابقة إدارة التفويضات للمستخدمين الفرعيين',
    'ثالثًا، تُستكمل الطلبات المعادة خلال المدة الظاهرة في الطلب، وتُحذف المسودات غير المقدَّمة تلقائيًا',
    'رابعًا، تحمل كل شهادة وعلامة حلال تصدر عبر البوابة رمز استجابة سريعة يمكن لأي شخص مسحه للتحقق من حالتها',
    'وللاستفسار يرجى استخدام صفحة تواصل معنا في البوابة',
  ],
  closing: 'المركز الوطني للحلال',
};

const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `${en.title} — ${ar.title}`, Author: en.closing } });
doc.pipe(createWriteStream(OUT));
doc.registerFont('ar', FONTS.ar);
doc.registerFont('ar-bold', FONTS.arBold);
doc.registerFont('en', FONTS.en);
doc.registerFont('en-bold', FONTS.enBold);

const width = doc.page.width - 112;
const date = new Date().toISOString().slice(0, 10);

function header() {
  doc.rect(0, 0, doc.page.width, 8).fill(GREEN);
  doc.fillColor(GREEN).font('en-bold').fontSize(12).text('National Halal Center', 56, 28, { width, align: 'left' });
  doc.font('ar-bold').fontSize(12).text('المركز الوطني للحلال', 56, 28, { width, align: 'right', features: ['rtla'] });
  doc.moveTo(56, 52).lineTo(56 + width, 52).strokeColor(GREEN).lineWidth(1).stroke();
  doc.fillColor('black').font('en').fontSize(9).text(`Date: ${date}`, 56, 60, { width, align: 'left' });
}

header();
// Arabic first: Arabic is the portal's default language.
doc.moveDown(2);
doc.font('ar-bold').fontSize(15).fillColor(GREEN).text(ar.title, { width, align: 'right', features: ['rtla'] });
doc.moveDown(0.3).font('ar-bold').fontSize(11).fillColor('black').text(ar.subject, { width, align: 'right', features: ['rtla'] });
doc.moveDown(0.6);
// A little narrower: measured widths of shaped Arabic run slightly short of the drawn ones.
for (const p of ar.body) doc.font('ar').fontSize(10.5).text(p, 64, doc.y, { width: width - 8, align: 'right', features: ['rtla'], lineGap: 2 }).moveDown(0.4);
doc.moveDown(0.4).font('ar-bold').fontSize(11).text(ar.closing, 56, doc.y, { width, align: 'left', features: ['rtla'] });

doc.moveDown(1.2);
doc.moveTo(56, doc.y).lineTo(56 + width, doc.y).strokeColor('#cccccc').lineWidth(0.5).stroke();
doc.moveDown(1);

doc.font('en-bold').fontSize(15).fillColor(GREEN).text(en.title, 56, doc.y, { width });
doc.moveDown(0.3).font('en-bold').fontSize(11).fillColor('black').text(en.subject, { width });
doc.moveDown(0.6);
for (const p of en.body) doc.font('en').fontSize(10.5).text(p, { width, lineGap: 2 }).moveDown(0.4);
doc.moveDown(0.4).font('en-bold').fontSize(11).text(en.closing, { width, align: 'right' });

doc.end();
console.log(`wrote ${OUT}`);
