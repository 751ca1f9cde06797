/**
 * The words of every account message, per translation set (the site's `content` codes).
 * Placeholders in braces are filled by mail-templates.ts, escaped for HTML there.
 *
 * NOTE: a new message kind needs its strings in every set here; mail-templates.test.ts
 * checks that each set has every key and keeps every placeholder.
 */
export interface MailText {
  codeSubject: string;
  codeBody: string;
  existingSubject: string;
  existingBody: string;
  passwordSubject: string;
  passwordBody: string;
  deviceSubject: string;
  deviceBody: string;
  settingSubject: string;
  settingBody: string;
  settingAntiPhishing: string;
  settingEmail: string;
  settingPhone: string;
  settingGoogle: string;
  settingRecoveryCodes: string;
  settingPasskeys: string;
  antiPhishing: string;
  footer: string;
}

export const MAIL_TEXT: Readonly<Record<string, MailText>> = {
  en: {
    codeSubject: "Your Meridian verification code",
    codeBody:
      "Your verification code is {code}. It expires in 10 minutes. Never share it: Meridian staff will never ask for it.",
    existingSubject: "Someone tried to sign up with your address",
    existingBody:
      "Someone tried to create a Meridian account with this address. You already have one: log in, or reset your password if you forgot it.",
    passwordSubject: "Your Meridian password was changed",
    passwordBody:
      "Your password was changed at {time} (UTC) from {ip}, {device}. Every other session was logged out. If this was not you, reset your password now.",
    deviceSubject: "New login to your Meridian account",
    deviceBody:
      "Your account was logged in from a new device at {time} (UTC): {device}, IP {ip}. If this was not you, change your password and log that device out under Devices.",
    settingSubject: "A security setting of your Meridian account changed",
    settingBody: "{setting} was changed at {time} (UTC). If this was not you, reset your password now.",
    settingAntiPhishing: "Your anti-phishing code",
    settingEmail: "Your bound e-mail address",
    settingPhone: "Your bound phone number",
    settingGoogle: "Your authenticator app",
    settingRecoveryCodes: "Your set of recovery codes",
    settingPasskeys: "Your passkeys",
    antiPhishing: "Anti-phishing code: {code}",
    footer: "This message was sent automatically by Meridian. Do not reply to it.",
  },
  "zh-CN": {
    codeSubject: "您的 Meridian 验证码",
    codeBody: "您的验证码是 {code}，10 分钟内有效。请勿泄露给任何人：Meridian 工作人员绝不会索取验证码。",
    existingSubject: "有人尝试使用您的地址注册",
    existingBody: "有人尝试使用此地址创建 Meridian 账户。您已拥有账户：请直接登录，如忘记密码请重置。",
    passwordSubject: "您的 Meridian 密码已修改",
    passwordBody:
      "您的密码已于 {time}（UTC）通过 {ip}（{device}）修改，其他所有会话均已退出。如非本人操作，请立即重置密码。",
    deviceSubject: "您的 Meridian 账户有新设备登录",
    deviceBody:
      "您的账户于 {time}（UTC）在新设备上登录：{device}，IP {ip}。如非本人操作，请修改密码并在“设备管理”中退出该设备。",
    settingSubject: "您的 Meridian 账户安全设置已变更",
    settingBody: "{setting}已于 {time}（UTC）变更。如非本人操作，请立即重置密码。",
    settingAntiPhishing: "防钓鱼码",
    settingEmail: "绑定邮箱",
    settingPhone: "绑定手机号",
    settingGoogle: "身份验证器",
    settingRecoveryCodes: "恢复码",
    settingPasskeys: "通行密钥",
    antiPhishing: "防钓鱼码：{code}",
    footer: "此邮件由 Meridian 系统自动发送，请勿回复。",
  },
  "zh-TC": {
    codeSubject: "您的 Meridian 驗證碼",
    codeBody: "您的驗證碼是 {code}，10 分鐘內有效。請勿洩露給任何人：Meridian 工作人員絕不會索取驗證碼。",
    existingSubject: "有人嘗試使用您的地址註冊",
    existingBody: "有人嘗試使用此地址建立 Meridian 帳戶。您已擁有帳戶：請直接登入，如忘記密碼請重設。",
    passwordSubject: "您的 Meridian 密碼已修改",
    passwordBody:
      "您的密碼已於 {time}（UTC）透過 {ip}（{device}）修改，其他所有工作階段均已登出。如非本人操作，請立即重設密碼。",
    deviceSubject: "您的 Meridian 帳戶有新裝置登入",
    deviceBody:
      "您的帳戶於 {time}（UTC）在新裝置上登入：{device}，IP {ip}。如非本人操作，請修改密碼並在「裝置管理」中登出該裝置。",
    settingSubject: "您的 Meridian 帳戶安全設定已變更",
    settingBody: "{setting}已於 {time}（UTC）變更。如非本人操作，請立即重設密碼。",
    settingAntiPhishing: "防釣魚碼",
    settingEmail: "綁定信箱",
    settingPhone: "綁定手機號碼",
    settingGoogle: "身分驗證器",
    settingRecoveryCodes: "復原碼",
    settingPasskeys: "通行密鑰",
    antiPhishing: "防釣魚碼：{code}",
    footer: "此郵件由 Meridian 系統自動發送，請勿回覆。",
  },
  ja: {
    codeSubject: "Meridian 認証コード",
    codeBody:
      "認証コードは {code} です。有効期限は10分です。誰にも教えないでください。Meridian のスタッフがコードを尋ねることはありません。",
    existingSubject: "お客様のアドレスで登録が試みられました",
    existingBody:
      "このアドレスで Meridian アカウントの作成が試みられました。すでにアカウントをお持ちです。ログインするか、パスワードをお忘れの場合は再設定してください。",
    passwordSubject: "Meridian のパスワードが変更されました",
    passwordBody:
      "{time}（UTC）に {ip}（{device}）からパスワードが変更され、他のすべてのセッションはログアウトされました。心当たりがない場合は、今すぐパスワードを再設定してください。",
    deviceSubject: "Meridian アカウントへの新しいログイン",
    deviceBody:
      "{time}（UTC）に新しいデバイスからログインがありました：{device}、IP {ip}。心当たりがない場合は、パスワードを変更し、「デバイス」でそのデバイスをログアウトしてください。",
    settingSubject: "Meridian アカウントのセキュリティ設定が変更されました",
    settingBody:
      "{setting}が {time}（UTC）に変更されました。心当たりがない場合は、今すぐパスワードを再設定してください。",
    settingAntiPhishing: "フィッシング対策コード",
    settingEmail: "登録メールアドレス",
    settingPhone: "登録電話番号",
    settingGoogle: "認証アプリ",
    settingRecoveryCodes: "リカバリーコード",
    settingPasskeys: "パスキー",
    antiPhishing: "フィッシング対策コード：{code}",
    footer: "このメールは Meridian から自動送信されています。返信しないでください。",
  },
  vi: {
    codeSubject: "Mã xác minh Meridian của bạn",
    codeBody:
      "Mã xác minh của bạn là {code}. Mã hết hạn sau 10 phút. Đừng chia sẻ mã: nhân viên Meridian không bao giờ hỏi mã này.",
    existingSubject: "Có người thử đăng ký bằng địa chỉ của bạn",
    existingBody:
      "Có người đã thử tạo tài khoản Meridian bằng địa chỉ này. Bạn đã có tài khoản: hãy đăng nhập, hoặc đặt lại mật khẩu nếu bạn quên.",
    passwordSubject: "Mật khẩu Meridian của bạn đã được thay đổi",
    passwordBody:
      "Mật khẩu của bạn đã được thay đổi lúc {time} (UTC) từ {ip}, {device}. Mọi phiên khác đã bị đăng xuất. Nếu không phải bạn, hãy đặt lại mật khẩu ngay.",
    deviceSubject: "Đăng nhập mới vào tài khoản Meridian",
    deviceBody:
      "Tài khoản của bạn đã được đăng nhập từ thiết bị mới lúc {time} (UTC): {device}, IP {ip}. Nếu không phải bạn, hãy đổi mật khẩu và đăng xuất thiết bị đó trong mục Thiết bị.",
    settingSubject: "Cài đặt bảo mật của tài khoản Meridian đã thay đổi",
    settingBody:
      "{setting} đã được thay đổi lúc {time} (UTC). Nếu không phải bạn, hãy đặt lại mật khẩu ngay.",
    settingAntiPhishing: "Mã chống lừa đảo",
    settingEmail: "Email đã liên kết",
    settingPhone: "Số điện thoại đã liên kết",
    settingGoogle: "Ứng dụng xác thực",
    settingRecoveryCodes: "Mã khôi phục",
    settingPasskeys: "Khóa truy cập (passkey)",
    antiPhishing: "Mã chống lừa đảo: {code}",
    footer: "Thư này được Meridian gửi tự động. Vui lòng không trả lời.",
  },
  ru: {
    codeSubject: "Ваш код подтверждения Meridian",
    codeBody:
      "Ваш код подтверждения: {code}. Он действует 10 минут. Никому его не сообщайте: сотрудники Meridian никогда не просят код.",
    existingSubject: "Кто-то пытался зарегистрироваться с вашим адресом",
    existingBody:
      "Кто-то пытался создать аккаунт Meridian с этим адресом. У вас уже есть аккаунт: войдите или сбросьте пароль, если забыли его.",
    passwordSubject: "Пароль Meridian изменён",
    passwordBody:
      "Ваш пароль изменён {time} (UTC) с {ip}, {device}. Все остальные сеансы завершены. Если это были не вы, немедленно сбросьте пароль.",
    deviceSubject: "Новый вход в аккаунт Meridian",
    deviceBody:
      "В ваш аккаунт вошли с нового устройства {time} (UTC): {device}, IP {ip}. Если это были не вы, смените пароль и завершите сеанс этого устройства в разделе «Устройства».",
    settingSubject: "Изменена настройка безопасности аккаунта Meridian",
    settingBody: "{setting}: изменено {time} (UTC). Если это были не вы, немедленно сбросьте пароль.",
    settingAntiPhishing: "Антифишинговый код",
    settingEmail: "Привязанный e-mail",
    settingPhone: "Привязанный номер телефона",
    settingGoogle: "Приложение-аутентификатор",
    settingRecoveryCodes: "Коды восстановления",
    settingPasskeys: "Ключи доступа",
    antiPhishing: "Антифишинговый код: {code}",
    footer: "Это письмо отправлено Meridian автоматически. Не отвечайте на него.",
  },
  es: {
    codeSubject: "Tu código de verificación de Meridian",
    codeBody:
      "Tu código de verificación es {code}. Caduca en 10 minutos. No lo compartas: el personal de Meridian nunca te lo pedirá.",
    existingSubject: "Alguien intentó registrarse con tu dirección",
    existingBody:
      "Alguien intentó crear una cuenta de Meridian con esta dirección. Ya tienes una: inicia sesión o restablece tu contraseña si la olvidaste.",
    passwordSubject: "Tu contraseña de Meridian ha cambiado",
    passwordBody:
      "Tu contraseña se cambió el {time} (UTC) desde {ip}, {device}. Se cerraron todas las demás sesiones. Si no fuiste tú, restablece tu contraseña ahora.",
    deviceSubject: "Nuevo inicio de sesión en tu cuenta de Meridian",
    deviceBody:
      "Se inició sesión en tu cuenta desde un dispositivo nuevo el {time} (UTC): {device}, IP {ip}. Si no fuiste tú, cambia tu contraseña y cierra la sesión de ese dispositivo en Dispositivos.",
    settingSubject: "Ha cambiado un ajuste de seguridad de tu cuenta de Meridian",
    settingBody: "{setting} se cambió el {time} (UTC). Si no fuiste tú, restablece tu contraseña ahora.",
    settingAntiPhishing: "Tu código antiphishing",
    settingEmail: "Tu correo vinculado",
    settingPhone: "Tu teléfono vinculado",
    settingGoogle: "Tu app de autenticación",
    settingRecoveryCodes: "Tus códigos de recuperación",
    settingPasskeys: "Tus llaves de acceso",
    antiPhishing: "Código antiphishing: {code}",
    footer: "Meridian envió este mensaje automáticamente. No respondas a él.",
  },
  it: {
    codeSubject: "Il tuo codice di verifica Meridian",
    codeBody:
      "Il tuo codice di verifica è {code}. Scade tra 10 minuti. Non condividerlo: il personale di Meridian non te lo chiederà mai.",
    existingSubject: "Qualcuno ha provato a registrarsi con il tuo indirizzo",
    existingBody:
      "Qualcuno ha provato a creare un account Meridian con questo indirizzo. Ne hai già uno: accedi, oppure reimposta la password se l'hai dimenticata.",
    passwordSubject: "La tua password Meridian è stata cambiata",
    passwordBody:
      "La tua password è stata cambiata il {time} (UTC) da {ip}, {device}. Tutte le altre sessioni sono state chiuse. Se non sei stato tu, reimposta subito la password.",
    deviceSubject: "Nuovo accesso al tuo account Meridian",
    deviceBody:
      "Il tuo account ha effettuato l'accesso da un nuovo dispositivo il {time} (UTC): {device}, IP {ip}. Se non sei stato tu, cambia la password e disconnetti quel dispositivo in Dispositivi.",
    settingSubject: "È cambiata un'impostazione di sicurezza del tuo account Meridian",
    settingBody:
      "{setting} è stato cambiato il {time} (UTC). Se non sei stato tu, reimposta subito la password.",
    settingAntiPhishing: "Il tuo codice anti-phishing",
    settingEmail: "La tua e-mail collegata",
    settingPhone: "Il tuo numero collegato",
    settingGoogle: "La tua app di autenticazione",
    settingRecoveryCodes: "I tuoi codici di recupero",
    settingPasskeys: "Le tue passkey",
    antiPhishing: "Codice anti-phishing: {code}",
    footer: "Questo messaggio è stato inviato automaticamente da Meridian. Non rispondere.",
  },
  fr: {
    codeSubject: "Votre code de vérification Meridian",
    codeBody:
      "Votre code de vérification est {code}. Il expire dans 10 minutes. Ne le partagez pas : l'équipe Meridian ne vous le demandera jamais.",
    existingSubject: "Quelqu'un a tenté de s'inscrire avec votre adresse",
    existingBody:
      "Quelqu'un a tenté de créer un compte Meridian avec cette adresse. Vous en avez déjà un : connectez-vous, ou réinitialisez votre mot de passe si vous l'avez oublié.",
    passwordSubject: "Votre mot de passe Meridian a été modifié",
    passwordBody:
      "Votre mot de passe a été modifié le {time} (UTC) depuis {ip}, {device}. Toutes les autres sessions ont été fermées. Si ce n'était pas vous, réinitialisez votre mot de passe maintenant.",
    deviceSubject: "Nouvelle connexion à votre compte Meridian",
    deviceBody:
      "Votre compte s'est connecté depuis un nouvel appareil le {time} (UTC) : {device}, IP {ip}. Si ce n'était pas vous, changez votre mot de passe et déconnectez cet appareil dans Appareils.",
    settingSubject: "Un paramètre de sécurité de votre compte Meridian a changé",
    settingBody:
      "{setting} a été modifié le {time} (UTC). Si ce n'était pas vous, réinitialisez votre mot de passe maintenant.",
    settingAntiPhishing: "Votre code anti-hameçonnage",
    settingEmail: "Votre e-mail associé",
    settingPhone: "Votre téléphone associé",
    settingGoogle: "Votre application d'authentification",
    settingRecoveryCodes: "Vos codes de récupération",
    settingPasskeys: "Vos clés d'accès",
    antiPhishing: "Code anti-hameçonnage : {code}",
    footer: "Ce message a été envoyé automatiquement par Meridian. N'y répondez pas.",
  },
  de: {
    codeSubject: "Ihr Meridian-Bestätigungscode",
    codeBody:
      "Ihr Bestätigungscode lautet {code}. Er läuft in 10 Minuten ab. Geben Sie ihn niemandem weiter: Meridian-Mitarbeiter fragen nie danach.",
    existingSubject: "Jemand wollte sich mit Ihrer Adresse registrieren",
    existingBody:
      "Jemand hat versucht, mit dieser Adresse ein Meridian-Konto zu erstellen. Sie haben bereits eines: Melden Sie sich an oder setzen Sie Ihr Passwort zurück, falls Sie es vergessen haben.",
    passwordSubject: "Ihr Meridian-Passwort wurde geändert",
    passwordBody:
      "Ihr Passwort wurde am {time} (UTC) von {ip}, {device} geändert. Alle anderen Sitzungen wurden abgemeldet. Falls Sie das nicht waren, setzen Sie Ihr Passwort jetzt zurück.",
    deviceSubject: "Neue Anmeldung bei Ihrem Meridian-Konto",
    deviceBody:
      "Ihr Konto wurde am {time} (UTC) von einem neuen Gerät angemeldet: {device}, IP {ip}. Falls Sie das nicht waren, ändern Sie Ihr Passwort und melden Sie das Gerät unter Geräte ab.",
    settingSubject: "Eine Sicherheitseinstellung Ihres Meridian-Kontos wurde geändert",
    settingBody:
      "{setting} wurde am {time} (UTC) geändert. Falls Sie das nicht waren, setzen Sie Ihr Passwort jetzt zurück.",
    settingAntiPhishing: "Ihr Anti-Phishing-Code",
    settingEmail: "Ihre verknüpfte E-Mail-Adresse",
    settingPhone: "Ihre verknüpfte Telefonnummer",
    settingGoogle: "Ihre Authenticator-App",
    settingRecoveryCodes: "Ihre Wiederherstellungscodes",
    settingPasskeys: "Ihre Passkeys",
    antiPhishing: "Anti-Phishing-Code: {code}",
    footer: "Diese Nachricht wurde automatisch von Meridian gesendet. Bitte nicht antworten.",
  },
  pt: {
    codeSubject: "O seu código de verificação Meridian",
    codeBody:
      "O seu código de verificação é {code}. Expira em 10 minutos. Não o partilhe: a equipa Meridian nunca o pedirá.",
    existingSubject: "Alguém tentou registar-se com o seu endereço",
    existingBody:
      "Alguém tentou criar uma conta Meridian com este endereço. Já tem uma: inicie sessão ou redefina a palavra-passe se a esqueceu.",
    passwordSubject: "A sua palavra-passe Meridian foi alterada",
    passwordBody:
      "A sua palavra-passe foi alterada em {time} (UTC) a partir de {ip}, {device}. Todas as outras sessões foram terminadas. Se não foi você, redefina a palavra-passe agora.",
    deviceSubject: "Novo início de sessão na sua conta Meridian",
    deviceBody:
      "A sua conta iniciou sessão num novo dispositivo em {time} (UTC): {device}, IP {ip}. Se não foi você, altere a palavra-passe e termine a sessão desse dispositivo em Dispositivos.",
    settingSubject: "Uma definição de segurança da sua conta Meridian foi alterada",
    settingBody: "{setting} foi alterado em {time} (UTC). Se não foi você, redefina a palavra-passe agora.",
    settingAntiPhishing: "O seu código anti-phishing",
    settingEmail: "O seu e-mail associado",
    settingPhone: "O seu telefone associado",
    settingGoogle: "A sua aplicação de autenticação",
    settingRecoveryCodes: "Os seus códigos de recuperação",
    settingPasskeys: "As suas chaves de acesso",
    antiPhishing: "Código anti-phishing: {code}",
    footer: "Esta mensagem foi enviada automaticamente pela Meridian. Não responda.",
  },
  id: {
    codeSubject: "Kode verifikasi Meridian Anda",
    codeBody:
      "Kode verifikasi Anda adalah {code}. Kode berlaku 10 menit. Jangan bagikan: staf Meridian tidak akan pernah memintanya.",
    existingSubject: "Seseorang mencoba mendaftar dengan alamat Anda",
    existingBody:
      "Seseorang mencoba membuat akun Meridian dengan alamat ini. Anda sudah punya akun: masuk, atau atur ulang kata sandi jika Anda lupa.",
    passwordSubject: "Kata sandi Meridian Anda telah diubah",
    passwordBody:
      "Kata sandi Anda diubah pada {time} (UTC) dari {ip}, {device}. Semua sesi lain telah dikeluarkan. Jika ini bukan Anda, segera atur ulang kata sandi.",
    deviceSubject: "Login baru ke akun Meridian Anda",
    deviceBody:
      "Akun Anda masuk dari perangkat baru pada {time} (UTC): {device}, IP {ip}. Jika ini bukan Anda, ubah kata sandi dan keluarkan perangkat itu di Perangkat.",
    settingSubject: "Pengaturan keamanan akun Meridian Anda berubah",
    settingBody: "{setting} diubah pada {time} (UTC). Jika ini bukan Anda, segera atur ulang kata sandi.",
    settingAntiPhishing: "Kode anti-phishing Anda",
    settingEmail: "Email tertaut Anda",
    settingPhone: "Nomor telepon tertaut Anda",
    settingGoogle: "Aplikasi autentikator Anda",
    settingRecoveryCodes: "Kode pemulihan Anda",
    settingPasskeys: "Kunci sandi Anda",
    antiPhishing: "Kode anti-phishing: {code}",
    footer: "Pesan ini dikirim otomatis oleh Meridian. Jangan membalas.",
  },
  pl: {
    codeSubject: "Twój kod weryfikacyjny Meridian",
    codeBody:
      "Twój kod weryfikacyjny to {code}. Wygasa za 10 minut. Nie udostępniaj go: pracownicy Meridian nigdy o niego nie poproszą.",
    existingSubject: "Ktoś próbował zarejestrować się z Twoim adresem",
    existingBody:
      "Ktoś próbował utworzyć konto Meridian z tym adresem. Masz już konto: zaloguj się lub zresetuj hasło, jeśli je zapomniałeś.",
    passwordSubject: "Twoje hasło Meridian zostało zmienione",
    passwordBody:
      "Twoje hasło zostało zmienione {time} (UTC) z {ip}, {device}. Wszystkie inne sesje zostały wylogowane. Jeśli to nie Ty, natychmiast zresetuj hasło.",
    deviceSubject: "Nowe logowanie do konta Meridian",
    deviceBody:
      "Na Twoje konto zalogowano się z nowego urządzenia {time} (UTC): {device}, IP {ip}. Jeśli to nie Ty, zmień hasło i wyloguj to urządzenie w sekcji Urządzenia.",
    settingSubject: "Zmieniono ustawienie bezpieczeństwa konta Meridian",
    settingBody: "{setting}: zmieniono {time} (UTC). Jeśli to nie Ty, natychmiast zresetuj hasło.",
    settingAntiPhishing: "Twój kod antyphishingowy",
    settingEmail: "Twój powiązany e-mail",
    settingPhone: "Twój powiązany numer telefonu",
    settingGoogle: "Twoja aplikacja uwierzytelniająca",
    settingRecoveryCodes: "Twoje kody odzyskiwania",
    settingPasskeys: "Twoje klucze dostępu",
    antiPhishing: "Kod antyphishingowy: {code}",
    footer: "Ta wiadomość została wysłana automatycznie przez Meridian. Nie odpowiadaj na nią.",
  },
  uk: {
    codeSubject: "Ваш код підтвердження Meridian",
    codeBody:
      "Ваш код підтвердження: {code}. Він дійсний 10 хвилин. Нікому його не повідомляйте: працівники Meridian ніколи не просять код.",
    existingSubject: "Хтось намагався зареєструватися з вашою адресою",
    existingBody:
      "Хтось намагався створити акаунт Meridian з цією адресою. У вас уже є акаунт: увійдіть або скиньте пароль, якщо забули його.",
    passwordSubject: "Пароль Meridian змінено",
    passwordBody:
      "Ваш пароль змінено {time} (UTC) з {ip}, {device}. Усі інші сеанси завершено. Якщо це були не ви, негайно скиньте пароль.",
    deviceSubject: "Новий вхід в акаунт Meridian",
    deviceBody:
      "У ваш акаунт увійшли з нового пристрою {time} (UTC): {device}, IP {ip}. Якщо це були не ви, змініть пароль і завершіть сеанс цього пристрою в розділі «Пристрої».",
    settingSubject: "Змінено налаштування безпеки акаунта Meridian",
    settingBody: "{setting}: змінено {time} (UTC). Якщо це були не ви, негайно скиньте пароль.",
    settingAntiPhishing: "Антифішинговий код",
    settingEmail: "Прив'язаний e-mail",
    settingPhone: "Прив'язаний номер телефону",
    settingGoogle: "Застосунок-автентифікатор",
    settingRecoveryCodes: "Коди відновлення",
    settingPasskeys: "Ключі доступу",
    antiPhishing: "Антифішинговий код: {code}",
    footer: "Цей лист надіслано Meridian автоматично. Не відповідайте на нього.",
  },
  uz: {
    codeSubject: "Meridian tasdiqlash kodingiz",
    codeBody:
      "Tasdiqlash kodingiz: {code}. U 10 daqiqada eskiradi. Hech kimga bermang: Meridian xodimlari hech qachon kodni so'ramaydi.",
    existingSubject: "Kimdir manzilingiz bilan ro'yxatdan o'tmoqchi bo'ldi",
    existingBody:
      "Kimdir ushbu manzil bilan Meridian hisobini ochmoqchi bo'ldi. Sizda allaqachon hisob bor: kiring yoki parolni unutgan bo'lsangiz, uni tiklang.",
    passwordSubject: "Meridian parolingiz o'zgartirildi",
    passwordBody:
      "Parolingiz {time} (UTC) da {ip}, {device} orqali o'zgartirildi. Boshqa barcha seanslar yopildi. Agar bu siz bo'lmasangiz, parolni hozir tiklang.",
    deviceSubject: "Meridian hisobingizga yangi kirish",
    deviceBody:
      "Hisobingizga {time} (UTC) da yangi qurilmadan kirildi: {device}, IP {ip}. Agar bu siz bo'lmasangiz, parolni o'zgartiring va Qurilmalar bo'limida o'sha qurilmani chiqaring.",
    settingSubject: "Meridian hisobingiz xavfsizlik sozlamasi o'zgardi",
    settingBody: "{setting} {time} (UTC) da o'zgartirildi. Agar bu siz bo'lmasangiz, parolni hozir tiklang.",
    settingAntiPhishing: "Fishingga qarshi kodingiz",
    settingEmail: "Bog'langan e-pochtangiz",
    settingPhone: "Bog'langan telefon raqamingiz",
    settingGoogle: "Autentifikator ilovangiz",
    settingRecoveryCodes: "Tiklash kodlaringiz",
    settingPasskeys: "Kirish kalitlaringiz",
    antiPhishing: "Fishingga qarshi kod: {code}",
    footer: "Bu xabar Meridian tomonidan avtomatik yuborildi. Javob bermang.",
  },
  ar: {
    codeSubject: "رمز التحقق الخاص بك من Meridian",
    codeBody:
      "رمز التحقق الخاص بك هو {code}. تنتهي صلاحيته خلال 10 دقائق. لا تشاركه مع أحد: لن يطلبه منك موظفو Meridian أبدًا.",
    existingSubject: "حاول شخص ما التسجيل باستخدام عنوانك",
    existingBody:
      "حاول شخص ما إنشاء حساب Meridian بهذا العنوان. لديك حساب بالفعل: سجّل الدخول، أو أعد تعيين كلمة المرور إذا نسيتها.",
    passwordSubject: "تم تغيير كلمة مرور Meridian الخاصة بك",
    passwordBody:
      "تم تغيير كلمة المرور في {time} (UTC) من {ip}، {device}. تم تسجيل الخروج من جميع الجلسات الأخرى. إن لم تكن أنت، فأعد تعيين كلمة المرور الآن.",
    deviceSubject: "تسجيل دخول جديد إلى حساب Meridian",
    deviceBody:
      "تم تسجيل الدخول إلى حسابك من جهاز جديد في {time} (UTC): {device}، عنوان IP {ip}. إن لم تكن أنت، فغيّر كلمة المرور وسجّل خروج ذلك الجهاز من صفحة الأجهزة.",
    settingSubject: "تم تغيير أحد إعدادات أمان حساب Meridian",
    settingBody: "تم تغيير {setting} في {time} (UTC). إن لم تكن أنت، فأعد تعيين كلمة المرور الآن.",
    settingAntiPhishing: "رمز مكافحة التصيد",
    settingEmail: "البريد الإلكتروني المرتبط",
    settingPhone: "رقم الهاتف المرتبط",
    settingGoogle: "تطبيق المصادقة",
    settingRecoveryCodes: "رموز الاسترداد",
    settingPasskeys: "مفاتيح المرور",
    antiPhishing: "رمز مكافحة التصيد: {code}",
    footer: "أُرسلت هذه الرسالة تلقائيًا من Meridian. لا ترد عليها.",
  },
  ph: {
    codeSubject: "Ang iyong Meridian verification code",
    codeBody:
      "Ang iyong verification code ay {code}. Mag-e-expire ito sa loob ng 10 minuto. Huwag itong ibahagi: hindi ito kailanman hihingin ng mga staff ng Meridian.",
    existingSubject: "May sumubok mag-sign up gamit ang iyong address",
    existingBody:
      "May sumubok gumawa ng Meridian account gamit ang address na ito. Mayroon ka nang account: mag-log in, o i-reset ang password kung nakalimutan mo ito.",
    passwordSubject: "Napalitan ang iyong Meridian password",
    passwordBody:
      "Napalitan ang iyong password noong {time} (UTC) mula sa {ip}, {device}. Na-log out ang lahat ng ibang session. Kung hindi ikaw ito, i-reset agad ang password.",
    deviceSubject: "Bagong pag-log in sa iyong Meridian account",
    deviceBody:
      "Na-log in ang iyong account mula sa bagong device noong {time} (UTC): {device}, IP {ip}. Kung hindi ikaw ito, palitan ang password at i-log out ang device na iyon sa Mga Device.",
    settingSubject: "Nagbago ang isang security setting ng iyong Meridian account",
    settingBody:
      "Napalitan ang {setting} noong {time} (UTC). Kung hindi ikaw ito, i-reset agad ang password.",
    settingAntiPhishing: "iyong anti-phishing code",
    settingEmail: "iyong naka-bind na email",
    settingPhone: "iyong naka-bind na numero ng telepono",
    settingGoogle: "iyong authenticator app",
    settingRecoveryCodes: "iyong mga recovery code",
    settingPasskeys: "iyong mga passkey",
    antiPhishing: "Anti-phishing code: {code}",
    footer: "Awtomatikong ipinadala ng Meridian ang mensaheng ito. Huwag itong sagutin.",
  },
};
