/**
 * Writes the user manual of the portal, one PDF per language: web/public/user-manual-ar.pdf and
 * web/public/user-manual-en.pdf, shown by the user-manual page in an embedded viewer with a download link.
 * Run: `npx tsx scripts/make-user-manual.ts`. The PDFs are committed; run this again only when the text changes.
 * Fonts are the self-hosted ones the web app uses.
 */
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const font = (pkg: string, file: string) => `${ROOT}node_modules/@fontsource/${pkg}/files/${file}`;
const GREEN = '#0b5e40';
const GOLD = '#c8962a';
const GREY = '#555555';

interface Chapter {
  title: string;
  paragraphs: string[];
  steps?: string[];
}

interface Manual {
  lang: 'ar' | 'en';
  title: string;
  subtitle: string;
  org: string;
  contentsTitle: string;
  chapters: Chapter[];
  footer: (page: number) => string;
}

const en: Manual = {
  lang: 'en',
  title: 'User manual',
  subtitle: 'National Halal certification portal',
  org: 'National Halal Center',
  contentsTitle: 'Contents',
  footer: (page) => `National Halal Center — User manual — page ${page}`,
  chapters: [
    {
      title: 'About the portal',
      paragraphs: [
        'The portal is the single channel for Halal certification services: Halal certificates for domestic and foreign facilities, designation of conformity bodies, shipment certificates, the Halal mark, invoices and the delegation of access to other users.',
        'It works in Arabic and English. Use the language button in the header to switch; the portal remembers your choice. Public pages such as HS codes, accredited conformity bodies and certificate verification work without signing in.',
      ],
    },
    {
      title: 'Signing in',
      paragraphs: ['Sign in with your user name or e-mail and your password. For your security the session ends after a period without activity; a warning counts down before you are signed out, and you can choose to stay signed in.'],
      steps: ['Choose "Sign in" at the top of any page.', 'Enter your user name or e-mail and your password.', 'You arrive at your facilities, or at the Halal center profile if you are a member of staff.'],
    },
    {
      title: 'Adding a facility or conformity body',
      paragraphs: [
        'A domestic facility is added with its commercial registration number, verified against the commercial registry. A foreign facility is added with its registration number, country and address. A conformity body adds its acceptance and notification numbers and its designation documents.',
        'The user who adds a facility becomes its main user and may delegate access to other people.',
      ],
      steps: ['Open "My facilities" and choose the type of facility to add.', 'Fill in the data and attach the commercial registration certificate, the accreditation certificate and, if you have one, the quality manual.', 'Check the summary and confirm.'],
    },
    {
      title: 'Delegating access',
      paragraphs: [
        'The main user of a facility or conformity body can delegate access to employees. A sub user has every permission except delegation. The delegate confirms the delegation with a code sent by SMS and acknowledges it before it takes effect.',
      ],
    },
    {
      title: 'Requesting a Halal certificate',
      paragraphs: [
        'The request wizard collects the factory data, addresses and branches, trademarks and products, HS codes, categories, operations and attachments, then shows a summary. You can save a draft and continue later; drafts that are not submitted are deleted automatically after a number of days.',
        'Only products whose HS code is Halal-eligible can be added. Look the code up on the HS codes page before you start.',
      ],
      steps: [
        'Open the facility and choose "New Halal certificate request".',
        'Complete each step; the portal checks each field as you go.',
        'Tick the declarations and submit. The request receives its number.',
      ],
    },
    {
      title: 'Following a request',
      paragraphs: [
        'The registration department reviews the request and may return it, or parts of it, with a note: correct what is asked and submit again. The audit and inspection department then proposes an audit plan, which you accept or return with a note.',
        'After the visit, any non-conformities come back to you for corrective actions, which the auditor accepts or returns. The decision committee then approves, returns the request to audit, or rejects it with a reason. Every step is shown in the request history.',
      ],
    },
    {
      title: 'Paying invoices',
      paragraphs: [
        'Invoices are paid through the government payment portal using the reference number shown on the invoice. Certificate fees can be paid yearly or in full. An invoice that is not paid in time expires, and so does the request.',
        'Amounts are in Saudi riyals; value added tax is shown separately with totals with and without tax.',
      ],
    },
    {
      title: 'Certificates, renewal and the Halal mark',
      paragraphs: [
        'Issued certificates appear in the facility profile with their products and history. A certificate with fewer than sixty days left can be renewed; an expired certificate blocks other services until it is renewed.',
        'The Halal mark is requested per product by a facility with a valid certificate. It is valid for up to a year and never beyond the facility certificate. Foreign factories obtain shipment certificates through their conformity body.',
      ],
    },
    {
      title: 'Verifying a certificate',
      paragraphs: [
        'Every certificate and Halal mark carries a QR code. Scanning it opens the verification page, which shows the certificate number, the holder, the scope, the products, the status and the issue and expiry dates in both the Gregorian and the Hijri (Umm al-Qura) calendars. You can also type the certificate number on the verification page.',
        'If the page says that no such certificate exists, the code is mistyped or the certificate is forged: do not rely on it.',
      ],
    },
    {
      title: 'Getting help',
      paragraphs: [
        'The FAQ page answers the most common questions, and the assistant (the chat button at the bottom of each page) answers from the same content. For anything else, use the contact details on the "Contact us" page.',
      ],
    },
  ],
};

// The Arabic subset of the font has no Latin letters, Latin punctuation or Western digits, so the Arabic text uses
// Arabic-Indic digits and Arabic punctuation only (checked below).
const ar: Manual = {
  lang: 'ar',
  title: 'دليل المستخدم',
  subtitle: 'البوابة الوطنية لشهادات الحلال',
  org: 'المركز الوطني للحلال',
  contentsTitle: 'المحتويات',
  footer: (page) => `المركز الوطني للحلال ـ دليل المستخدم ـ صفحة ${toArabicDigits(page)}`,
  chapters: [
    {
      title: 'عن البوابة',
      paragraphs: [
        'البوابة هي القناة الموحدة لخدمات شهادات الحلال، وتشمل شهادات الحلال للمنشآت المحلية والأجنبية، وتعيين جهات تقويم المطابقة، وشهادات الإرساليات، وعلامة الحلال، والفواتير، وتفويض الوصول لمستخدمين آخرين',
        'تعمل البوابة باللغتين العربية والإنجليزية، ويمكنك التبديل بينهما من زر اللغة في أعلى الصفحة، وتحفظ البوابة اختيارك، وتعمل الصفحات العامة مثل رموز النظام المنسق وجهات تقويم المطابقة المعتمدة والتحقق من الشهادات دون تسجيل الدخول',
      ],
    },
    {
      title: 'تسجيل الدخول',
      paragraphs: ['سجل الدخول باسم المستخدم أو البريد الإلكتروني وكلمة المرور، وحفاظاً على أمانك تنتهي الجلسة بعد مدة من عدم النشاط، ويظهر تنبيه بعد تنازلي قبل تسجيل الخروج يمكنك معه اختيار البقاء'],
      steps: ['اختر تسجيل الدخول في أعلى أي صفحة', 'أدخل اسم المستخدم أو البريد الإلكتروني وكلمة المرور', 'تنتقل إلى منشآتك، أو إلى ملف مركز الحلال إن كنت من موظفي المركز'],
    },
    {
      title: 'إضافة منشأة أو جهة تقويم مطابقة',
      paragraphs: [
        'تضاف المنشأة المحلية برقم سجلها التجاري بعد التحقق منه لدى مركز الأعمال، وتضاف المنشأة الأجنبية برقم تسجيلها ودولتها وعنوانها، وتضيف جهة تقويم المطابقة رقم القبول ورقم الإخطار ووثائق التعيين',
        'يصبح المستخدم الذي يضيف المنشأة المستخدم الرئيسي لها، ويحق له تفويض الوصول لأشخاص آخرين',
      ],
      steps: ['افتح منشآتي واختر نوع المنشأة المراد إضافتها', 'أدخل البيانات وأرفق السجل التجاري وشهادة الاعتماد ودليل الجودة إن وجد', 'راجع الملخص ثم أكد الإضافة'],
    },
    {
      title: 'تفويض الوصول',
      paragraphs: [
        'يستطيع المستخدم الرئيسي للمنشأة أو جهة تقويم المطابقة تفويض الوصول لموظفيه، ويملك المستخدم الفرعي جميع الصلاحيات عدا التفويض، ويؤكد المفوض التفويض برمز يصله في رسالة نصية ثم يقر به قبل أن يسري',
      ],
    },
    {
      title: 'طلب شهادة حلال',
      paragraphs: [
        'يجمع معالج الطلب بيانات المصنع والعناوين والفروع والعلامات التجارية والمنتجات ورموز النظام المنسق والفئات والعمليات والمرفقات، ثم يعرض ملخصاً، ويمكنك حفظ الطلب مسودة وإكماله لاحقاً، وتحذف المسودات غير المقدمة تلقائياً بعد عدد من الأيام',
        'لا يمكن إضافة منتج إلا إذا كان رمزه في النظام المنسق مؤهلاً للحلال، لذا ابحث عن الرمز في صفحة رموز النظام المنسق قبل البدء',
      ],
      steps: ['افتح المنشأة واختر طلب شهادة حلال جديد', 'أكمل كل خطوة، وتتحقق البوابة من كل حقل أثناء الإدخال', 'حدد الإقرارات وأرسل الطلب ليحصل على رقمه'],
    },
    {
      title: 'متابعة الطلب',
      paragraphs: [
        'تراجع إدارة التسجيل الطلب وقد تعيده كله أو بعض أجزائه مع ملاحظة، فعدل المطلوب وأعد الإرسال، ثم تقترح إدارة التدقيق والتفتيش خطة تدقيق تقبلها أو تعيدها مع ملاحظة',
        'بعد الزيارة تعود إليك حالات عدم المطابقة لتنفيذ الإجراءات التصحيحية التي يقبلها المدقق أو يعيدها، ثم تعتمد لجنة القرار الطلب أو تعيده إلى التدقيق أو ترفضه مع ذكر السبب، وتظهر كل خطوة في سجل الطلب',
      ],
    },
    {
      title: 'سداد الفواتير',
      paragraphs: [
        'تسدد الفواتير عبر منصة السداد الحكومية برقم المرجع الظاهر في الفاتورة، ويمكن سداد رسوم الشهادة سنوياً أو دفعة واحدة، وتنتهي الفاتورة غير المسددة في موعدها وينتهي معها الطلب',
        'المبالغ بالريال السعودي، وتظهر ضريبة القيمة المضافة منفصلة مع الإجمالي قبل الضريبة وبعدها',
      ],
    },
    {
      title: 'الشهادات والتجديد وعلامة الحلال',
      paragraphs: [
        'تظهر الشهادات الصادرة في ملف المنشأة مع منتجاتها وسجلها، ويمكن تجديد الشهادة عندما يتبقى على انتهائها أقل من ستين يوماً، والشهادة المنتهية توقف الخدمات الأخرى حتى تجديدها',
        'تطلب المنشأة الحاصلة على شهادة سارية علامة الحلال لكل منتج، وتصلح العلامة سنة بحد أقصى ولا تتجاوز مدة شهادة المنشأة، وتحصل المصانع الأجنبية على شهادات الإرساليات عبر جهة تقويم المطابقة',
      ],
    },
    {
      title: 'التحقق من الشهادة',
      paragraphs: [
        'تحمل كل شهادة وعلامة حلال رمز استجابة سريعة، ومسحه يفتح صفحة التحقق التي تعرض رقم الشهادة وصاحبها ونطاقها ومنتجاتها وحالتها وتاريخي الإصدار والانتهاء بالتقويمين الميلادي والهجري وفق تقويم أم القرى، ويمكنك أيضاً إدخال رقم الشهادة في صفحة التحقق',
        'إذا ذكرت الصفحة أنه لا توجد شهادة بهذا الرقم فالرمز مكتوب خطأ أو الشهادة مزورة، فلا تعتمد عليها',
      ],
    },
    {
      title: 'الحصول على المساعدة',
      paragraphs: ['تجيب صفحة الأسئلة الشائعة عن أكثر الأسئلة تكراراً، ويجيب المساعد الآلي من زر المحادثة أسفل كل صفحة من المحتوى نفسه، ولغير ذلك استخدم بيانات التواصل في صفحة تواصل معنا'],
    },
  ],
};

function toArabicDigits(n: number): string {
  return String(n).replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]);
}

/** Arabic letters, Arabic-Indic digits, Arabic punctuation, the tatweel dash and spaces: what the font can draw. */
const ARABIC_ONLY = /^[\u0600-\u06FF\s]+$/;
function checkArabic(m: Manual) {
  const texts = [m.title, m.subtitle, m.org, m.contentsTitle, m.footer(1), ...m.chapters.flatMap((c) => [c.title, ...c.paragraphs, ...(c.steps ?? [])])];
  const bad = texts.filter((s) => !ARABIC_ONLY.test(s));
  if (bad.length) throw new Error(`Arabic text with characters the font lacks:\n${bad.join('\n')}`);
}

function write(m: Manual): Promise<string> {
  const rtl = m.lang === 'ar';
  const out = `${ROOT}web/public/user-manual-${m.lang}.pdf`;
  const regular = rtl ? font('noto-sans-arabic', 'noto-sans-arabic-arabic-400-normal.woff') : font('inter', 'inter-latin-400-normal.woff');
  const bold = rtl ? font('noto-sans-arabic', 'noto-sans-arabic-arabic-700-normal.woff') : font('inter', 'inter-latin-700-normal.woff');
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 72, bottom: 72, left: 64, right: 64 },
    bufferPages: true,
    info: { Title: `${m.title} — ${m.subtitle}`, Author: m.org, Subject: m.subtitle },
    lang: m.lang,
  } as PDFKit.PDFDocumentOptions);
  const done = new Promise<string>((resolve) => {
    const stream = createWriteStream(out);
    stream.on('finish', () => resolve(out));
    doc.pipe(stream);
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const left = 64;
  const width = doc.page.width - 128;
  const align = rtl ? 'right' : 'left';
  // Shaped Arabic is measured slightly short of what is drawn: keep a little slack.
  const textOpts = (extra: PDFKit.Mixins.TextOptions = {}): PDFKit.Mixins.TextOptions => ({
    width: rtl ? width - 8 : width,
    align,
    lineGap: 3,
    ...(rtl ? { features: ['rtla'] } : {}),
    ...extra,
  });
  const x = rtl ? left + 8 : left;

  // Cover.
  doc.rect(0, 0, doc.page.width, 220).fill(GREEN);
  doc.rect(0, 220, doc.page.width, 6).fill(GOLD);
  doc.fillColor('white').font('bold').fontSize(30).text(m.title, x, 100, textOpts());
  doc.font('regular').fontSize(16).text(m.subtitle, x, doc.y + 8, textOpts());
  doc.fillColor(GREEN).font('bold').fontSize(14).text(m.org, x, 256, textOpts());

  // Contents.
  doc.moveDown(1.5);
  doc.fillColor('black').font('bold').fontSize(16).text(m.contentsTitle, x, doc.y, textOpts());
  doc.moveDown(0.5);
  m.chapters.forEach((c, i) => {
    const n = rtl ? toArabicDigits(i + 1) : String(i + 1);
    doc.font('regular').fontSize(12).fillColor(GREY).text(`${n}  ${c.title}`, x, doc.y, textOpts({ lineGap: rtl ? 2 : 6 }));
  });

  // Chapters, each on its own page.
  m.chapters.forEach((c, i) => {
    doc.addPage();
    const n = rtl ? toArabicDigits(i + 1) : String(i + 1);
    doc.fillColor(GREEN).font('bold').fontSize(20).text(`${n}  ${c.title}`, x, doc.y, textOpts());
    const ruleY = doc.y + 4;
    doc.moveTo(left, ruleY).lineTo(left + width, ruleY).strokeColor(GOLD).lineWidth(2).stroke();
    doc.y = ruleY + 14;
    for (const p of c.paragraphs) {
      doc.fillColor('black').font('regular').fontSize(12).text(p, x, doc.y, textOpts());
      doc.moveDown(0.8);
    }
    c.steps?.forEach((s, k) => {
      const num = rtl ? toArabicDigits(k + 1) : String(k + 1);
      const top = doc.y;
      // A numbered disc on the reading side, the text beside it.
      const discX = rtl ? left + width - 10 : left + 10;
      doc.circle(discX, top + 9, 10).fill(GREEN);
      doc.fillColor('white').font('bold').fontSize(10).text(num, discX - 10, top + 2, { width: 20, align: 'center', ...(rtl ? { features: ['rtla'] } : {}) });
      doc.fillColor('black').font('regular').fontSize(12).text(s, rtl ? left + 8 : left + 30, top, textOpts({ width: width - 38 }));
      doc.y = Math.max(doc.y, top + 22) + 6;
    });
  });

  // Footers on every page but the cover.
  const range = doc.bufferedPageRange();
  for (let p = range.start + 1; p < range.start + range.count; p++) {
    doc.switchToPage(p);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(9).fillColor(GREY).text(m.footer(p + 1), left, doc.page.height - 48, textOpts({ lineGap: 0, width, align: 'center' }));
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

checkArabic(ar);
for (const m of [ar, en]) console.log(`wrote ${await write(m)}`);
