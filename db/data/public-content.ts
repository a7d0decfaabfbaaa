import type { NewsMotif } from './news-images';

/**
 * Demo content of the public site in both languages, seeded once by db/seed-public.ts and then edited by
 * administrators. Body markup: a blank line between paragraphs, `## ` for a heading, `- ` for a list item.
 */
export interface PageSeed {
  key: string;
  titleAr: string;
  titleEn: string;
  summaryAr: string;
  summaryEn: string;
  bodyAr: string;
  bodyEn: string;
}

export const PAGE_SEEDS: PageSeed[] = [
  {
    key: 'home',
    titleAr: 'شهادات حلال موثوقة لمنتجاتكم',
    titleEn: 'Trusted Halal certification for your products',
    summaryAr:
      'البوابة الوطنية لإصدار شهادات الحلال للمنشآت المحلية والأجنبية وتعيين جهات تقويم المطابقة والتحقق من الشهادات وعلامات الحلال.',
    summaryEn:
      'The national portal for Halal certificates of local and foreign facilities, designation of conformity bodies, and verification of certificates and Halal marks.',
    bodyAr: `## شهادة حلال للمنشآت المحلية
تقدم المصانع السعودية طلب شهادة الحلال إلكترونياً، ويتولى المركز المراجعة والتدقيق الميداني وقرار اللجنة خلال خمسة عشر يوم عمل كحد أقصى.

## شهادة حلال للمنشآت الأجنبية
تصدر جهات تقويم المطابقة المعتمدة شهادات الحلال للمصانع خارج المملكة عبر البوابة، وتصدر الشهادة فور سداد الرسوم.

## شهادات الإرساليات
شهادة حلال لكل إرسالية من اللحوم والدواجن والمنتجات الغذائية المصدرة إلى المملكة، صادرة عن جهة معتمدة.

## علامة الحلال
علامة حلال لكل منتج برمز استجابة سريعة يتحقق منه المستهلك في ثوانٍ.

## تعيين جهات تقويم المطابقة
تتقدم جهات تقويم المطابقة بطلب التعيين لإصدار شهادات الحلال، وتُراجع الطلبات خلال ثلاثين يوماً.`,
    bodyEn: `## Halal certificate for local facilities
Saudi factories apply online; the center handles the registration review, the on-site audit and the committee decision within at most fifteen working days.

## Halal certificate for foreign facilities
Accredited conformity bodies issue Halal certificates to factories outside the Kingdom through the portal; the certificate is issued as soon as the fees are paid.

## Shipment certificates
A Halal certificate for every shipment of meat, poultry and food products exported to the Kingdom, issued by an accredited body.

## Halal mark
A Halal mark per product with a QR code that consumers verify in seconds.

## Designation of conformity bodies
Conformity bodies apply to be designated to issue Halal certificates; applications are reviewed within thirty days.`,
  },
  {
    key: 'about-center',
    titleAr: 'عن المركز',
    titleEn: 'About the center',
    summaryAr: 'المركز الوطني للحلال هو الجهة الوطنية المختصة بإصدار شهادات الحلال والإشراف على جهات تقويم المطابقة.',
    summaryEn: 'The National Halal Center is the national authority for Halal certification and for the oversight of conformity bodies.',
    bodyAr: `أُنشئ المركز الوطني للحلال ليكون المرجع الوطني لمنظومة الحلال في المملكة العربية السعودية، يضع متطلبات إصدار الشهادات ويشرف على تطبيقها، ويحمي المستهلك بضمان مطابقة المنتجات المتداولة في أسواق المملكة لأحكام الشريعة الإسلامية والمواصفات القياسية المعتمدة.

## رؤيتنا
منظومة حلال رائدة عالمياً يثق بها المستهلك في كل مكان.

## رسالتنا
إصدار شهادات حلال موثوقة بإجراءات رقمية واضحة وسريعة، والإشراف على جهات تقويم المطابقة داخل المملكة وخارجها بما يعزز الثقة في المنتج الحلال.

## قيمنا
- النزاهة والحياد في كل قرار
- الشفافية في المتطلبات والرسوم والمدد
- الاحترافية والكفاءة الفنية
- خدمة المستفيد أولاً

## ما نقوم به
- إصدار شهادات الحلال للمنشآت المحلية وتجديدها
- تعيين جهات تقويم المطابقة الأجنبية والإشراف على أدائها
- إصدار علامة الحلال للمنتجات وإتاحة التحقق منها للجمهور
- التدقيق الميداني ومتابعة الإجراءات التصحيحية
- التوعية بمتطلبات الحلال لدى المنتجين والمستوردين والمستهلكين`,
    bodyEn: `The National Halal Center was established as the national reference for the Halal system in the Kingdom of Saudi Arabia. It sets the requirements for certification and oversees their application, and protects consumers by ensuring that the products on the Saudi market comply with Islamic Sharia and the adopted standards.

## Our vision
A world-leading Halal system trusted by consumers everywhere.

## Our mission
To issue reliable Halal certificates through clear and fast digital procedures, and to oversee conformity bodies inside and outside the Kingdom, strengthening trust in Halal products.

## Our values
- Integrity and impartiality in every decision
- Transparency of requirements, fees and timelines
- Professionalism and technical competence
- The applicant comes first

## What we do
- Issue and renew Halal certificates for local facilities
- Designate foreign conformity bodies and oversee their performance
- Issue Halal marks for products and let the public verify them
- Conduct on-site audits and follow up corrective actions
- Raise awareness of Halal requirements among producers, importers and consumers`,
  },
  {
    key: 'contact-us',
    titleAr: 'تواصل معنا',
    titleEn: 'Contact us',
    summaryAr: 'قنوات التواصل مع المركز الوطني للحلال: الهاتف الموحد والبريد الإلكتروني والعنوان وأوقات العمل.',
    summaryEn: 'How to reach the National Halal Center: unified number, e-mail, address and working hours.',
    bodyAr: `يسعدنا الرد على استفساراتكم حول الشهادات والطلبات والفواتير، ونوصي بمراجعة صفحة الأسئلة الشائعة أولاً فقد تجدون الإجابة فوراً.

## الرقم الموحد
920 000 123 (من الأحد إلى الخميس، من الساعة 8 صباحاً حتى 4 مساءً)

## البريد الإلكتروني
care@halal-center.example

## العنوان
طريق الملك فهد، حي العليا، الرياض 12211، المملكة العربية السعودية

## للاستفسار عن طلب قائم
- اذكروا رقم الطلب أو رقم الشهادة في رسالتكم
- أرفقوا صورة رسالة الخطأ إن وجدت
- نرد على الرسائل خلال يومي عمل`,
    bodyEn: `We are glad to answer your questions about certificates, requests and invoices. Please check the FAQ first: the answer may already be there.

## Unified number
920 000 123 (Sunday to Thursday, 8 am to 4 pm)

## E-mail
care@halal-center.example

## Address
King Fahd Road, Al Olaya, Riyadh 12211, Kingdom of Saudi Arabia

## About an existing request
- Mention the request or certificate number in your message
- Attach a screenshot of any error message
- We answer within two working days`,
  },
  {
    key: 'privacy',
    titleAr: 'سياسة الخصوصية',
    titleEn: 'Privacy policy',
    summaryAr: 'كيف يجمع المركز الوطني للحلال بياناتكم الشخصية ويستخدمها ويحميها عند استخدام البوابة.',
    summaryEn: 'How the National Halal Center collects, uses and protects your personal data when you use the portal.',
    bodyAr: `نلتزم بحماية بياناتكم الشخصية وفق نظام حماية البيانات الشخصية في المملكة العربية السعودية ولوائحه التنفيذية.

## البيانات التي نجمعها
- بيانات الحساب: الاسم ورقم الهوية ورقم الجوال والبريد الإلكتروني
- بيانات المنشأة: السجل التجاري والعنوان والمفوضون
- بيانات الطلبات والمرفقات والفواتير
- سجلات الدخول والعمليات لأغراض الأمن والتدقيق

## كيف نستخدمها
نستخدم البيانات لمعالجة طلباتكم وإصدار الشهادات والتواصل معكم بشأنها، ولا نستخدمها لأغراض تسويقية.

## مشاركة البيانات
لا نشارك بياناتكم إلا مع الجهات الحكومية المختصة بقدر ما يتطلبه النظام، ومع جهة تقويم المطابقة المعنية بطلبكم.

## حفظ البيانات وأمنها
تُحفظ البيانات داخل المملكة، وتُشفر عند النقل، ولا يصل إليها إلا الموظفون المخولون.

## حقوقكم
يحق لكم الاطلاع على بياناتكم وطلب تصحيحها أو الحصول على نسخة منها عبر صفحة حسابكم أو بالتواصل معنا.

## ملفات تعريف الارتباط
نستخدم ملفات تعريف ارتباط ضرورية فقط لتسجيل الدخول وحماية النماذج وحفظ اللغة المختارة.`,
    bodyEn: `We are committed to protecting your personal data under the Personal Data Protection Law of the Kingdom of Saudi Arabia and its implementing regulations.

## Data we collect
- Account data: name, national ID, mobile number and e-mail
- Facility data: commercial registration, address and delegates
- Request data, attachments and invoices
- Sign-in and activity logs for security and audit

## How we use it
We use the data to process your requests, issue certificates and contact you about them. We do not use it for marketing.

## Sharing
We share your data only with the competent government authorities as far as the law requires, and with the conformity body concerned by your request.

## Storage and security
Data is stored inside the Kingdom, encrypted in transit, and accessible only to authorised staff.

## Your rights
You may see your data, ask for corrections, or get a copy of it from your account page or by contacting us.

## Cookies
We use only the cookies needed to sign you in, protect forms and remember your language.`,
  },
  {
    key: 'our-customers',
    titleAr: 'عملاؤنا',
    titleEn: 'Our customers',
    summaryAr: 'منشآت محلية وأجنبية تحمل شهادات حلال سارية صادرة عبر البوابة.',
    summaryEn: 'Local and foreign facilities holding valid Halal certificates issued through the portal.',
    bodyAr: 'نعتز بثقة المصانع والمنشآت التي اختارت شهادة الحلال من المركز. تضم القائمة أدناه المنشآت التي تحمل شهادة سارية حالياً.',
    bodyEn: 'We value the trust of the factories and facilities that chose the center for their Halal certification. The list below shows the facilities that currently hold a valid certificate.',
  },
  {
    key: 'media-center',
    titleAr: 'المركز الإعلامي',
    titleEn: 'Media center',
    summaryAr: 'أخبار المركز الوطني للحلال وإعلاناته وفعالياته.',
    summaryEn: 'News, announcements and events of the National Halal Center.',
    bodyAr: 'تابعوا آخر أخبار المركز وإعلاناته عن الخدمات الجديدة والتحديثات التنظيمية والفعاليات.',
    bodyEn: "Follow the center's latest news and its announcements of new services, regulatory updates and events.",
  },
  {
    key: 'user-manual',
    titleAr: 'دليل المستخدم',
    titleEn: 'User manual',
    summaryAr: 'دليل استخدام بوابة الحلال: التسجيل وإضافة المنشآت وتقديم الطلبات والسداد والتحقق من الشهادات.',
    summaryEn: 'How to use the Halal portal: registration, adding facilities, submitting requests, payment and verification.',
    bodyAr: 'يشرح الدليل خطوات استخدام البوابة من التسجيل حتى استلام الشهادة. يمكنكم قراءته هنا أو تنزيله بصيغة PDF.',
    bodyEn: 'The manual explains how to use the portal, from registration to receiving your certificate. Read it here or download it as a PDF.',
  },
  {
    key: 'faq',
    titleAr: 'الأسئلة الشائعة',
    titleEn: 'Frequently asked questions',
    summaryAr: 'إجابات عن أكثر الأسئلة شيوعاً حول شهادات الحلال والطلبات والرسوم والتحقق.',
    summaryEn: 'Answers to the most common questions about Halal certificates, requests, fees and verification.',
    bodyAr: 'جمعنا هنا إجابات أكثر الأسئلة التي تصلنا. لم تجدوا ما تبحثون عنه؟ اسألوا المساعد الآلي أو تواصلوا معنا.',
    bodyEn: "Here are the answers to the questions we are asked most. Can't find yours? Ask the assistant or contact us.",
  },
  {
    key: 'hs-code',
    titleAr: 'رموز النظام المنسق',
    titleEn: 'HS codes',
    summaryAr: 'ابحثوا في رموز النظام المنسق (HS) برقم الرمز أو بالكلمات، واعرفوا الرموز التي يمكن تسجيل منتجات الحلال تحتها.',
    summaryEn: 'Search the Harmonized System (HS) codes by number or words and see which codes Halal products may be registered under.',
    bodyAr:
      'يستخدم النظام المنسق لتصنيف السلع في التجارة الدولية. لا يمكن إضافة منتج إلى طلب شهادة حلال إلا إذا كان رمزه ضمن الرموز المؤهلة للحلال المميزة في القائمة.',
    bodyEn:
      'The Harmonized System classifies goods in international trade. A product can be added to a Halal certificate request only when its code is one of the Halal-eligible codes marked in the list.',
  },
  {
    key: 'accredited-cb',
    titleAr: 'جهات تقويم المطابقة المعتمدة',
    titleEn: 'Accredited conformity bodies',
    summaryAr: 'قائمة جهات تقويم المطابقة المعينة لإصدار شهادات الحلال مع حالة شهادة التعيين والفئات المعتمدة.',
    summaryEn: 'Conformity bodies designated to issue Halal certificates, with the status of their designation certificate and their categories.',
    bodyAr: 'لا تُقبل شهادات الحلال للمنتجات المستوردة إلا من جهة تقويم مطابقة شهادة تعيينها سارية وضمن الفئات المعتمدة لها.',
    bodyEn: 'Halal certificates for imported products are accepted only from a conformity body whose designation certificate is valid, within its designated categories.',
  },
  {
    key: 'verify',
    titleAr: 'التحقق من الشهادة',
    titleEn: 'Certificate verification',
    summaryAr: 'تحققوا من صحة شهادة الحلال أو علامة الحلال وحالتها وتاريخ انتهائها بمسح رمز الاستجابة السريعة أو إدخال رقمها.',
    summaryEn: 'Check that a Halal certificate or Halal mark is genuine, its status and its expiry date by scanning its QR code or entering its number.',
    bodyAr: 'امسحوا رمز الاستجابة السريعة المطبوع على الشهادة أو على عبوة المنتج، أو أدخلوا رقم الشهادة أو رمز التحقق.',
    bodyEn: 'Scan the QR code printed on the certificate or on the product package, or enter the certificate number or verification code.',
  },
];

export interface NewsSeed {
  titleAr: string;
  titleEn: string;
  summaryAr: string;
  summaryEn: string;
  bodyAr: string;
  bodyEn: string;
  imageAltAr: string;
  imageAltEn: string;
  /** Days before the seed date. */
  daysAgo: number;
  motif: NewsMotif;
  colors: readonly [readonly [number, number, number], readonly [number, number, number], readonly [number, number, number]];
}

const GREEN = [12, 90, 60] as const;
const GREEN_LIGHT = [30, 140, 100] as const;
const GOLD = [200, 150, 40] as const;
const TEAL = [10, 80, 100] as const;
const TEAL_LIGHT = [40, 130, 150] as const;
const NAVY = [25, 45, 90] as const;
const NAVY_LIGHT = [60, 95, 150] as const;

export const NEWS_SEEDS: NewsSeed[] = [
  {
    titleAr: 'إطلاق خدمة التحقق الفوري من علامة الحلال',
    titleEn: 'Instant Halal mark verification launched',
    summaryAr: 'أصبح بإمكان المستهلك التحقق من علامة الحلال على أي منتج بمسح رمز الاستجابة السريعة.',
    summaryEn: 'Consumers can now verify the Halal mark on any product by scanning its QR code.',
    bodyAr: `أطلق المركز الوطني للحلال خدمة التحقق الفوري من علامة الحلال، إذ يكفي مسح رمز الاستجابة السريعة المطبوع على عبوة المنتج لعرض اسم المنشأة ورقم الشهادة وحالتها وتاريخ انتهائها بالتقويمين الهجري والميلادي.

وتأتي الخدمة ضمن جهود المركز لتعزيز ثقة المستهلك ومكافحة العلامات المزورة، وتعمل دون الحاجة إلى تسجيل الدخول.`,
    bodyEn: `The National Halal Center has launched instant verification of the Halal mark: scanning the QR code printed on a product's package shows the facility's name, the certificate number, its status and its expiry date in both the Hijri and Gregorian calendars.

The service is part of the center's efforts to strengthen consumer trust and fight forged marks, and works without signing in.`,
    imageAltAr: 'شارة علامة الحلال مع علامة صح',
    imageAltEn: 'Halal mark badge with a check mark',
    daysAgo: 3,
    motif: 'badge',
    colors: [GREEN, GREEN_LIGHT, GOLD],
  },
  {
    titleAr: 'تعيين خمس جهات جديدة لتقويم المطابقة',
    titleEn: 'Five new conformity bodies designated',
    summaryAr: 'انضمت خمس جهات من آسيا وأوروبا وأمريكا الجنوبية إلى قائمة الجهات المعتمدة لإصدار شهادات الحلال.',
    summaryEn: 'Five bodies from Asia, Europe and South America joined the list of bodies accredited to issue Halal certificates.',
    bodyAr: `أعلن المركز تعيين خمس جهات جديدة لتقويم المطابقة بعد استكمال مراجعة طلباتها والتدقيق الميداني على مقراتها، ليرتفع عدد الجهات المعتمدة في قائمة المركز.

ويمكن للمستوردين الاطلاع على القائمة المحدثة وفئات كل جهة وحالة شهادة تعيينها في صفحة جهات تقويم المطابقة المعتمدة.`,
    bodyEn: `The center has designated five new conformity bodies after completing the review of their applications and the on-site audit of their offices, increasing the number of accredited bodies on its list.

Importers can see the updated list, each body's categories and the status of its designation certificate on the accredited conformity bodies page.`,
    imageAltAr: 'كرة أرضية ترمز إلى الجهات الدولية',
    imageAltEn: 'Globe representing international bodies',
    daysAgo: 12,
    motif: 'globe',
    colors: [TEAL, TEAL_LIGHT, GOLD],
  },
  {
    titleAr: 'تحديث قائمة رموز النظام المنسق المؤهلة للحلال',
    titleEn: 'Halal-eligible HS code list updated',
    summaryAr: 'اعتمد المركز قائمة محدثة لرموز النظام المنسق التي تُسجل تحتها منتجات الحلال وفق إصدار 2022.',
    summaryEn: 'The center adopted an updated list of the HS codes under which Halal products are registered, following the 2022 edition.',
    bodyAr: `اعتمد المركز قائمة محدثة لرموز النظام المنسق المؤهلة لتسجيل منتجات الحلال وفق إصدار 2022 من النظام المنسق، وتشمل فصول اللحوم والأسماك والألبان والحبوب والزيوت والمحضرات الغذائية ومكونات الأغذية كالجيلاتين والإنزيمات.

ويمكن البحث في القائمة برقم الرمز أو بالكلمات من صفحة رموز النظام المنسق.`,
    bodyEn: `The center has adopted an updated list of the HS codes eligible for registering Halal products, following the 2022 edition of the Harmonized System. It covers the chapters of meat, fish, dairy, cereals, oils and food preparations, and food ingredients such as gelatin and enzymes.

The list can be searched by code or by words on the HS codes page.`,
    imageAltAr: 'سنابل قمح ترمز إلى المنتجات الغذائية',
    imageAltEn: 'Ears of wheat representing food products',
    daysAgo: 25,
    motif: 'wheat',
    colors: [GREEN, GREEN_LIGHT, GOLD],
  },
  {
    titleAr: 'شهادات الإرساليات إلكترونياً بالكامل',
    titleEn: 'Shipment certificates now fully online',
    summaryAr: 'تصدر شهادات حلال الإرساليات الآن عبر البوابة فور اكتمال البيانات وسداد الرسوم.',
    summaryEn: 'Halal shipment certificates are now issued through the portal as soon as the data is complete and the fees are paid.',
    bodyAr: `تنفيذاً للتعميم رقم 10130 بشأن إلزام المصانع بالحصول على شهادات حلال للإرساليات عبر الجهات المعتمدة، أصبحت شهادات الإرساليات تصدر إلكترونياً بالكامل.

وتحسب رسوم الشهادة بواقع ألف ريال لكل سبعة وعشرين طناً من الوزن الصافي الإجمالي غير شاملة ضريبة القيمة المضافة.`,
    bodyEn: `Following circular no. 10130, which obliges factories to obtain Halal shipment certificates through accredited bodies, shipment certificates are now issued fully online.

The fee is 1,000 SAR per 27 tons of total net weight, excluding VAT.`,
    imageAltAr: 'سفينة حاويات في البحر',
    imageAltEn: 'Container ship at sea',
    daysAgo: 40,
    motif: 'waves',
    colors: [NAVY, NAVY_LIGHT, GOLD],
  },
  {
    titleAr: 'ورشة عمل حول متطلبات التدقيق الميداني',
    titleEn: 'Workshop on on-site audit requirements',
    summaryAr: 'نظم المركز ورشة عمل للمصانع المحلية حول الاستعداد للتدقيق الميداني والإجراءات التصحيحية.',
    summaryEn: 'The center held a workshop for local factories on preparing for the on-site audit and corrective actions.',
    bodyAr: `نظم المركز ورشة عمل حضرها ممثلو أكثر من ستين مصنعاً محلياً، تناولت خطة التدقيق وأيام الزيارة ودور منسق المنشأة، وكيفية توثيق الإجراءات التصحيحية لحالات عدم المطابقة.

وأكد المشاركون أهمية الاستعداد المبكر وتحديث دليل الجودة ومخطط العمليات قبل موعد الزيارة.`,
    bodyEn: `The center held a workshop attended by representatives of more than sixty local factories. It covered the audit plan, the visit days, the role of the facility coordinator, and how to document corrective actions for non-conformities.

Participants stressed the value of preparing early and updating the quality manual and process diagram before the visit.`,
    imageAltAr: 'شبكة من النقاط ترمز إلى خطة التدقيق',
    imageAltEn: 'Grid of dots representing an audit plan',
    daysAgo: 58,
    motif: 'grid',
    colors: [TEAL, TEAL_LIGHT, GOLD],
  },
  {
    titleAr: 'مذكرة تفاهم لتبادل الخبرات في مجال الحلال',
    titleEn: 'Memorandum of understanding on Halal expertise',
    summaryAr: 'وقع المركز مذكرة تفاهم مع هيئة نظيرة لتبادل الخبرات الفنية وتوحيد متطلبات التدقيق.',
    summaryEn: 'The center signed a memorandum with a peer authority to exchange technical expertise and align audit requirements.',
    bodyAr: `وقع المركز الوطني للحلال مذكرة تفاهم مع هيئة نظيرة تهدف إلى تبادل الخبرات الفنية وبرامج التدريب للمدققين، والعمل على توحيد متطلبات التدقيق والاعتراف المتبادل بالنتائج.

وتسهم المذكرة في تسهيل وصول المنتجات الحلال إلى الأسواق مع الحفاظ على أعلى معايير الموثوقية.`,
    bodyEn: `The National Halal Center signed a memorandum of understanding with a peer authority to exchange technical expertise and auditor training programmes, and to work towards aligned audit requirements and mutual recognition of results.

The memorandum will ease market access for Halal products while keeping the highest standards of reliability.`,
    imageAltAr: 'حلقتان متشابكتان ترمزان إلى الشراكة',
    imageAltEn: 'Two linked rings representing partnership',
    daysAgo: 75,
    motif: 'rings',
    colors: [GREEN, TEAL_LIGHT, GOLD],
  },
  {
    titleAr: 'تمديد أوقات خدمة العملاء خلال شهر رمضان',
    titleEn: 'Extended customer service hours in Ramadan',
    summaryAr: 'يستقبل مركز خدمة العملاء الاتصالات في شهر رمضان من العاشرة صباحاً حتى الرابعة عصراً ومن التاسعة مساءً حتى منتصف الليل.',
    summaryEn: 'In Ramadan the customer service center answers calls from 10 am to 4 pm and from 9 pm to midnight.',
    bodyAr: `حرصاً على خدمة المستفيدين خلال شهر رمضان المبارك، يستقبل مركز خدمة العملاء الاتصالات على فترتين: من العاشرة صباحاً حتى الرابعة عصراً، ومن التاسعة مساءً حتى منتصف الليل.

وتبقى البوابة متاحة على مدار الساعة لتقديم الطلبات وسداد الفواتير والتحقق من الشهادات.`,
    bodyEn: `To serve applicants during the blessed month of Ramadan, the customer service center answers calls in two shifts: from 10 am to 4 pm and from 9 pm to midnight.

The portal stays available around the clock for requests, invoice payments and certificate verification.`,
    imageAltAr: 'شارة ترمز إلى خدمة العملاء',
    imageAltEn: 'Badge representing customer service',
    daysAgo: 120,
    motif: 'badge',
    colors: [NAVY, NAVY_LIGHT, GOLD],
  },
];

export interface FaqSeed {
  questionAr: string;
  questionEn: string;
  answerAr: string;
  answerEn: string;
  keywordsAr: string;
  keywordsEn: string;
}

export const FAQ_SEEDS: FaqSeed[] = [
  {
    questionAr: 'كيف أتحقق من صحة شهادة حلال؟',
    questionEn: 'How do I verify a Halal certificate?',
    answerAr:
      'امسح رمز الاستجابة السريعة المطبوع على الشهادة أو على المنتج، أو أدخل رقم الشهادة في صفحة التحقق. تظهر لك حالة الشهادة واسم المنشأة وتاريخ الانتهاء بالتقويمين.',
    answerEn:
      'Scan the QR code printed on the certificate or the product, or enter the certificate number on the verification page. You will see its status, the facility name and the expiry date in both calendars.',
    keywordsAr: 'تحقق صحة مزورة رمز استجابة سريعة باركود فحص',
    keywordsEn: 'verify check genuine fake forged qr scan valid',
  },
  {
    questionAr: 'ما مدة إصدار شهادة الحلال للمنشأة المحلية؟',
    questionEn: 'How long does a Halal certificate for a local facility take?',
    answerAr: 'تُعالج طلبات شهادة الحلال للمنشآت المحلية خلال خمسة عشر يوم عمل كحد أقصى من اكتمال الطلب، وتُصدر الشهادة بعد سداد رسومها.',
    answerEn: 'Requests for local facilities are processed within at most fifteen working days from a complete application; the certificate is issued once its fee is paid.',
    keywordsAr: 'مدة وقت أيام متى إصدار محلية مصنع سعودي',
    keywordsEn: 'time duration days long internal local saudi factory processing',
  },
  {
    questionAr: 'ما المستندات المطلوبة لطلب شهادة الحلال؟',
    questionEn: 'Which documents do I need to apply?',
    answerAr: 'السجل التجاري، وشهادة الاعتماد، ودليل الجودة، ومخطط العمليات، وبيانات المنتجات والعلامات التجارية. تقبل الملفات بصيغ PDF وPNG وJPG حتى 50 ميجابايت للملف.',
    answerEn: 'Commercial registration, accreditation certificate, quality manual, process diagram, and the data of your products and trademarks. Files may be PDF, PNG or JPG, up to 50 MB each.',
    keywordsAr: 'مستندات وثائق مرفقات ملفات متطلبات سجل تجاري',
    keywordsEn: 'documents attachments files requirements upload commercial registration',
  },
  {
    questionAr: 'متى يمكنني تجديد شهادة الحلال؟',
    questionEn: 'When can I renew my Halal certificate?',
    answerAr: 'يمكن تجديد الشهادة عندما يتبقى على انتهائها أقل من ستين يوماً، والشهادة المنتهية تمنع إصدار الشهادات والخدمات الأخرى حتى تجديدها.',
    answerEn: 'You can renew when fewer than sixty days remain before expiry. An expired certificate blocks certificates and other services until it is renewed.',
    keywordsAr: 'تجديد انتهاء منتهية صلاحية',
    keywordsEn: 'renew renewal expire expiry expired',
  },
  {
    questionAr: 'كيف أسدد الفواتير؟',
    questionEn: 'How do I pay invoices?',
    answerAr: 'تُسدد الفواتير عبر منصة السداد الحكومية برقم المرجع الظاهر في الفاتورة. يمكن سداد رسوم الشهادة سنوياً أو دفعة واحدة، وينتهي الطلب إذا لم تُسدد الفاتورة في موعدها.',
    answerEn: 'Invoices are paid through the government payment portal using the reference number on the invoice. Certificate fees can be paid yearly or in full; a request expires if its invoice is not paid in time.',
    keywordsAr: 'سداد دفع فاتورة فواتير رسوم مبلغ ضريبة',
    keywordsEn: 'pay payment invoice bill fees amount vat sadad',
  },
  {
    questionAr: 'ما هي جهة تقويم المطابقة؟',
    questionEn: 'What is a conformity body?',
    answerAr: 'جهة معينة من المركز لإصدار شهادات الحلال للمصانع خارج المملكة وشهادات الإرساليات، ضمن فئات محددة في شهادة تعيينها. تجد قائمتها في صفحة جهات تقويم المطابقة المعتمدة.',
    answerEn: 'A body designated by the center to issue Halal certificates to factories outside the Kingdom and shipment certificates, within the categories of its designation certificate. See the accredited conformity bodies page.',
    keywordsAr: 'جهة تقويم مطابقة معتمدة تعيين اعتماد أجنبية',
    keywordsEn: 'conformity body cb accredited designation foreign certifier',
  },
  {
    questionAr: 'كيف أعرف إن كان منتجي مؤهلاً لشهادة الحلال؟',
    questionEn: 'How do I know if my product is eligible?',
    answerAr: 'ابحث عن رمز النظام المنسق لمنتجك في صفحة رموز النظام المنسق؛ لا يُضاف المنتج إلى الطلب إلا إذا كان رمزه ضمن الرموز المؤهلة للحلال.',
    answerEn: "Look up your product's HS code on the HS codes page: a product can be added to a request only when its code is Halal-eligible.",
    keywordsAr: 'منتج مؤهل رمز نظام منسق تعريفة جمركية',
    keywordsEn: 'product eligible hs code harmonized tariff customs',
  },
  {
    questionAr: 'ما هي علامة الحلال وكيف أحصل عليها؟',
    questionEn: 'What is the Halal mark and how do I get it?',
    answerAr: 'علامة الحلال شعار يوضع على عبوة المنتج برمز تحقق. تطلبها المنشأة الحاصلة على شهادة سارية لكل منتج، وتكون صالحة سنة بحد أقصى ولا تتجاوز مدة شهادة المنشأة.',
    answerEn: "The Halal mark is a logo printed on the product package with a verification code. A facility holding a valid certificate requests it per product; it is valid for up to a year and never beyond the facility's certificate.",
    keywordsAr: 'علامة شعار لوجو ملصق عبوة',
    keywordsEn: 'mark logo label package sticker',
  },
  {
    questionAr: 'هل يمكنني تفويض موظف آخر لإدارة طلبات المنشأة؟',
    questionEn: 'Can I delegate another employee to manage requests?',
    answerAr: 'نعم، يستطيع المستخدم الرئيس للمنشأة إضافة مفوضين فرعيين وتحديد صلاحياتهم، ولا يملك المفوض الفرعي صلاحية التفويض.',
    answerEn: 'Yes. The main user of a facility can add sub-delegates and choose their permissions; a sub-delegate cannot delegate further.',
    keywordsAr: 'تفويض مفوض موظف صلاحيات مستخدم فرعي',
    keywordsEn: 'delegate delegation employee permission sub user',
  },
  {
    questionAr: 'ماذا أفعل إذا أعيد طلبي من إدارة التسجيل؟',
    questionEn: 'What should I do if my request is returned?',
    answerAr: 'افتح الطلب واقرأ ملاحظة الإعادة، ثم عدل الأقسام المطلوبة وأعد إرسال الطلب. يعود الطلب إلى المراجعة بنفس رقمه.',
    answerEn: 'Open the request, read the return note, correct the sections concerned and submit again. The request goes back to review under the same number.',
    keywordsAr: 'إعادة معاد ملاحظة تعديل رفض',
    keywordsEn: 'returned return note edit correct rejected',
  },
  {
    questionAr: 'كم رسوم شهادة الإرسالية؟',
    questionEn: 'What is the fee for a shipment certificate?',
    answerAr: 'ألف ريال لكل سبعة وعشرين طناً من الوزن الصافي الإجمالي للإرسالية، غير شاملة ضريبة القيمة المضافة.',
    answerEn: '1,000 SAR per 27 tons of total net weight of the shipment, excluding VAT.',
    keywordsAr: 'إرسالية شحنة رسوم تكلفة سعر',
    keywordsEn: 'shipment consignment fee cost price tons',
  },
  {
    questionAr: 'كيف أغير لغة البوابة؟',
    questionEn: 'How do I change the language?',
    answerAr: 'اضغط زر اللغة في أعلى الصفحة للتبديل بين العربية والإنجليزية، وتحفظ البوابة اختيارك.',
    answerEn: 'Use the language button at the top of the page to switch between Arabic and English; the portal remembers your choice.',
    keywordsAr: 'لغة عربي إنجليزي تغيير',
    keywordsEn: 'language arabic english switch change',
  },
];
