import type { Language } from '../config.js';

/** The texts the server writes itself (notifications, mails), in every instance language. */
interface Texts {
  cardCreated: (p: { actor: string; card: string; board: string }) => string;
  cardMoved: (p: { actor: string; card: string; from: string; to: string }) => string;
  cardDone: (p: { actor: string; card: string }) => string;
  cardReopened: (p: { actor: string; card: string }) => string;
  cardAssigned: (p: { actor: string; card: string }) => string;
  comment: (p: { actor: string; card: string; excerpt: string }) => string;
  mentionInComment: (p: { actor: string; card: string }) => string;
  mentionInCard: (p: { actor: string; card: string }) => string;
  cardDue: (p: { card: string; board: string; when: string }) => string;
  invitation: (p: { actor: string; board: string }) => string;
  inviteSubject: (p: { actor: string; board: string }) => string;
  inviteBody: (p: { actor: string; board: string; link: string; days: number }) => string;
  digestSubject: (p: { count: number }) => string;
  digestIntro: (p: { count: number }) => string;
  digestOpen: string;
  resetSubject: string;
  resetBody: (p: { link: string }) => string;
  verifySubject: string;
  verifyBody: (p: { link: string; days: number }) => string;
  testSubject: string;
  testBody: (p: { link: string; admin: string }) => string;
  webhookDisabled: (p: { url: string; board: string; failures: number }) => string;
}

const q = (s: string) => `“${s}”`;

export const texts: Record<Language, Texts> = {
  en: {
    cardCreated: (p) => `${p.actor} created the card ${q(p.card)} on ${q(p.board)}`,
    cardMoved: (p) => `${p.actor} moved the card ${q(p.card)} from ${q(p.from)} to ${q(p.to)}`,
    cardDone: (p) => `${p.actor} marked the card ${q(p.card)} as done`,
    cardReopened: (p) => `${p.actor} reopened the card ${q(p.card)}`,
    cardAssigned: (p) => `${p.actor} assigned you the card ${q(p.card)}`,
    comment: (p) => `${p.actor} commented on ${q(p.card)}: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} mentioned you in a comment on ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} mentioned you in the card ${q(p.card)}`,
    cardDue: (p) => `The card ${q(p.card)} on ${q(p.board)} is due ${p.when}`,
    invitation: (p) => `${p.actor} shared the board ${q(p.board)} with you`,
    inviteSubject: (p) => `${p.actor} invited you to the board ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} invited you to work together on the board ${q(p.board)}.\n\nCreate your account and join it here:\n${p.link}\n\nThe link works once and expires in ${p.days} days.`,
    digestSubject: (p) => `${p.count} unread ${p.count === 1 ? 'notification' : 'notifications'}`,
    digestIntro: (p) => `You have ${p.count} unread ${p.count === 1 ? 'notification' : 'notifications'}:`,
    digestOpen: 'Open your boards',
    resetSubject: 'Reset your password',
    resetBody: (p) =>
      `Someone asked to reset the password of your account. If it was you, choose a new one here:\n${p.link}\n\nIf not, ignore this mail.`,
    verifySubject: 'Confirm your e-mail address',
    verifyBody: (p) =>
      `Please confirm that this address is yours by opening this link:\n${p.link}\n\nUntil then, invitations to boards sent to this address do not reach your account. The link works for ${p.days} days; you can ask for a new one in the app. If you have no account with us, ignore this mail.`,
    testSubject: 'Test mail from Tavla',
    testBody: (p) =>
      `${p.admin} sent this test mail from the administration page of Tavla at ${p.link}.\n\nIf you read it, mail from this instance reaches you.`,
    webhookDisabled: (p) =>
      `The webhook to ${p.url} on ${q(p.board)} was turned off after ${p.failures} failed deliveries in a row`,
  },
  de: {
    cardCreated: (p) => `${p.actor} hat die Karte ${q(p.card)} auf ${q(p.board)} erstellt`,
    cardMoved: (p) => `${p.actor} hat die Karte ${q(p.card)} von ${q(p.from)} nach ${q(p.to)} verschoben`,
    cardDone: (p) => `${p.actor} hat die Karte ${q(p.card)} als erledigt markiert`,
    cardReopened: (p) => `${p.actor} hat die Karte ${q(p.card)} wieder geöffnet`,
    cardAssigned: (p) => `${p.actor} hat dir die Karte ${q(p.card)} zugewiesen`,
    comment: (p) => `${p.actor} hat ${q(p.card)} kommentiert: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} hat dich in einem Kommentar zu ${q(p.card)} erwähnt`,
    mentionInCard: (p) => `${p.actor} hat dich in der Karte ${q(p.card)} erwähnt`,
    cardDue: (p) => `Die Karte ${q(p.card)} auf ${q(p.board)} ist fällig: ${p.when}`,
    invitation: (p) => `${p.actor} hat das Board ${q(p.board)} mit dir geteilt`,
    inviteSubject: (p) => `${p.actor} hat dich zum Board ${q(p.board)} eingeladen`,
    inviteBody: (p) =>
      `${p.actor} hat dich eingeladen, am Board ${q(p.board)} mitzuarbeiten.\n\nLege hier dein Konto an und tritt bei:\n${p.link}\n\nDer Link funktioniert einmal und läuft in ${p.days} Tagen ab.`,
    digestSubject: (p) => `${p.count} ungelesene ${p.count === 1 ? 'Benachrichtigung' : 'Benachrichtigungen'}`,
    digestIntro: (p) => `Du hast ${p.count} ungelesene ${p.count === 1 ? 'Benachrichtigung' : 'Benachrichtigungen'}:`,
    digestOpen: 'Deine Boards öffnen',
    resetSubject: 'Passwort zurücksetzen',
    resetBody: (p) =>
      `Jemand möchte das Passwort deines Kontos zurücksetzen. Wenn du es warst, wähle hier ein neues:\n${p.link}\n\nWenn nicht, ignoriere diese Mail.`,
    verifySubject: 'Bestätige deine E-Mail-Adresse',
    verifyBody: (p) =>
      `Bitte bestätige, dass diese Adresse dir gehört, indem du diesen Link öffnest:\n${p.link}\n\nBis dahin erreichen Einladungen zu Boards an diese Adresse dein Konto nicht. Der Link gilt ${p.days} Tage; in der App kannst du einen neuen anfordern. Wenn du bei uns kein Konto hast, ignoriere diese Mail.`,
    testSubject: 'Testmail von Tavla',
    testBody: (p) =>
      `${p.admin} hat diese Testmail von der Verwaltungsseite von Tavla unter ${p.link} gesendet.\n\nWenn du sie liest, erreichen dich Mails dieser Instanz.`,
    webhookDisabled: (p) =>
      `Der Webhook an ${p.url} auf ${q(p.board)} wurde nach ${p.failures} fehlgeschlagenen Zustellungen in Folge abgeschaltet`,
  },
  fr: {
    cardCreated: (p) => `${p.actor} a créé la carte ${q(p.card)} sur ${q(p.board)}`,
    cardMoved: (p) => `${p.actor} a déplacé la carte ${q(p.card)} de ${q(p.from)} vers ${q(p.to)}`,
    cardDone: (p) => `${p.actor} a marqué la carte ${q(p.card)} comme terminée`,
    cardReopened: (p) => `${p.actor} a rouvert la carte ${q(p.card)}`,
    cardAssigned: (p) => `${p.actor} vous a assigné la carte ${q(p.card)}`,
    comment: (p) => `${p.actor} a commenté ${q(p.card)} : ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} vous a mentionné dans un commentaire sur ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} vous a mentionné dans la carte ${q(p.card)}`,
    cardDue: (p) => `La carte ${q(p.card)} sur ${q(p.board)} arrive à échéance : ${p.when}`,
    invitation: (p) => `${p.actor} a partagé le tableau ${q(p.board)} avec vous`,
    inviteSubject: (p) => `${p.actor} vous invite sur le tableau ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} vous invite à collaborer sur le tableau ${q(p.board)}.\n\nCréez votre compte et rejoignez-le ici :\n${p.link}\n\nLe lien ne sert qu’une fois et expire dans ${p.days} jours.`,
    digestSubject: (p) => `${p.count} notification${p.count === 1 ? '' : 's'} non lue${p.count === 1 ? '' : 's'}`,
    digestIntro: (p) => `Vous avez ${p.count} notification${p.count === 1 ? '' : 's'} non lue${p.count === 1 ? '' : 's'} :`,
    digestOpen: 'Ouvrir vos tableaux',
    resetSubject: 'Réinitialiser votre mot de passe',
    resetBody: (p) =>
      `Quelqu’un a demandé à réinitialiser le mot de passe de votre compte. Si c’était vous, choisissez-en un nouveau ici :\n${p.link}\n\nSinon, ignorez ce message.`,
    verifySubject: 'Confirmez votre adresse e-mail',
    verifyBody: (p) =>
      `Veuillez confirmer que cette adresse est la vôtre en ouvrant ce lien :\n${p.link}\n\nJusque-là, les invitations à des tableaux envoyées à cette adresse n’atteignent pas votre compte. Le lien est valable ${p.days} jours ; vous pouvez en demander un nouveau dans l’application. Si vous n’avez pas de compte chez nous, ignorez ce message.`,
    testSubject: 'E-mail de test de Tavla',
    testBody: (p) =>
      `${p.admin} a envoyé cet e-mail de test depuis la page d’administration de Tavla sur ${p.link}.\n\nSi vous le lisez, les e-mails de cette instance vous parviennent.`,
    webhookDisabled: (p) =>
      `Le webhook vers ${p.url} sur ${q(p.board)} a été désactivé après ${p.failures} échecs de livraison consécutifs`,
  },
  es: {
    cardCreated: (p) => `${p.actor} creó la tarjeta ${q(p.card)} en ${q(p.board)}`,
    cardMoved: (p) => `${p.actor} movió la tarjeta ${q(p.card)} de ${q(p.from)} a ${q(p.to)}`,
    cardDone: (p) => `${p.actor} marcó la tarjeta ${q(p.card)} como hecha`,
    cardReopened: (p) => `${p.actor} reabrió la tarjeta ${q(p.card)}`,
    cardAssigned: (p) => `${p.actor} te asignó la tarjeta ${q(p.card)}`,
    comment: (p) => `${p.actor} comentó en ${q(p.card)}: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} te mencionó en un comentario en ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} te mencionó en la tarjeta ${q(p.card)}`,
    cardDue: (p) => `La tarjeta ${q(p.card)} en ${q(p.board)} vence: ${p.when}`,
    invitation: (p) => `${p.actor} compartió el tablero ${q(p.board)} contigo`,
    inviteSubject: (p) => `${p.actor} te invitó al tablero ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} te invitó a colaborar en el tablero ${q(p.board)}.\n\nCrea tu cuenta y únete aquí:\n${p.link}\n\nEl enlace funciona una vez y caduca en ${p.days} días.`,
    digestSubject: (p) => `${p.count} ${p.count === 1 ? 'notificación no leída' : 'notificaciones no leídas'}`,
    digestIntro: (p) => `Tienes ${p.count} ${p.count === 1 ? 'notificación no leída' : 'notificaciones no leídas'}:`,
    digestOpen: 'Abrir tus tableros',
    resetSubject: 'Restablecer tu contraseña',
    resetBody: (p) =>
      `Alguien pidió restablecer la contraseña de tu cuenta. Si fuiste tú, elige una nueva aquí:\n${p.link}\n\nSi no, ignora este correo.`,
    verifySubject: 'Confirma tu dirección de correo',
    verifyBody: (p) =>
      `Confirma que esta dirección es tuya abriendo este enlace:\n${p.link}\n\nHasta entonces, las invitaciones a tableros enviadas a esta dirección no llegan a tu cuenta. El enlace vale ${p.days} días; puedes pedir uno nuevo en la aplicación. Si no tienes una cuenta con nosotros, ignora este correo.`,
    testSubject: 'Correo de prueba de Tavla',
    testBody: (p) =>
      `${p.admin} envió este correo de prueba desde la página de administración de Tavla en ${p.link}.\n\nSi lo lees, el correo de esta instancia te llega.`,
    webhookDisabled: (p) => `El webhook a ${p.url} en ${q(p.board)} se desactivó tras ${p.failures} entregas fallidas seguidas`,
  },
  it: {
    cardCreated: (p) => `${p.actor} ha creato la scheda ${q(p.card)} su ${q(p.board)}`,
    cardMoved: (p) => `${p.actor} ha spostato la scheda ${q(p.card)} da ${q(p.from)} a ${q(p.to)}`,
    cardDone: (p) => `${p.actor} ha segnato la scheda ${q(p.card)} come completata`,
    cardReopened: (p) => `${p.actor} ha riaperto la scheda ${q(p.card)}`,
    cardAssigned: (p) => `${p.actor} ti ha assegnato la scheda ${q(p.card)}`,
    comment: (p) => `${p.actor} ha commentato ${q(p.card)}: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} ti ha menzionato in un commento su ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} ti ha menzionato nella scheda ${q(p.card)}`,
    cardDue: (p) => `La scheda ${q(p.card)} su ${q(p.board)} scade: ${p.when}`,
    invitation: (p) => `${p.actor} ha condiviso con te la bacheca ${q(p.board)}`,
    inviteSubject: (p) => `${p.actor} ti ha invitato alla bacheca ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} ti ha invitato a collaborare sulla bacheca ${q(p.board)}.\n\nCrea il tuo account e unisciti qui:\n${p.link}\n\nIl link funziona una sola volta e scade tra ${p.days} giorni.`,
    digestSubject: (p) => `${p.count} ${p.count === 1 ? 'notifica non letta' : 'notifiche non lette'}`,
    digestIntro: (p) => `Hai ${p.count} ${p.count === 1 ? 'notifica non letta' : 'notifiche non lette'}:`,
    digestOpen: 'Apri le tue bacheche',
    resetSubject: 'Reimposta la password',
    resetBody: (p) =>
      `Qualcuno ha chiesto di reimpostare la password del tuo account. Se sei stato tu, scegline una nuova qui:\n${p.link}\n\nAltrimenti ignora questa email.`,
    verifySubject: 'Conferma il tuo indirizzo email',
    verifyBody: (p) =>
      `Conferma che questo indirizzo è tuo aprendo questo link:\n${p.link}\n\nFino ad allora, gli inviti alle bacheche inviati a questo indirizzo non raggiungono il tuo account. Il link vale ${p.days} giorni; puoi chiederne uno nuovo nell’app. Se non hai un account da noi, ignora questa email.`,
    testSubject: 'Email di prova da Tavla',
    testBody: (p) =>
      `${p.admin} ha inviato questa email di prova dalla pagina di amministrazione di Tavla su ${p.link}.\n\nSe la leggi, le email di questa istanza ti raggiungono.`,
    webhookDisabled: (p) =>
      `Il webhook verso ${p.url} su ${q(p.board)} è stato disattivato dopo ${p.failures} consegne fallite di fila`,
  },
  nl: {
    cardCreated: (p) => `${p.actor} heeft de kaart ${q(p.card)} op ${q(p.board)} gemaakt`,
    cardMoved: (p) => `${p.actor} heeft de kaart ${q(p.card)} van ${q(p.from)} naar ${q(p.to)} verplaatst`,
    cardDone: (p) => `${p.actor} heeft de kaart ${q(p.card)} als klaar gemarkeerd`,
    cardReopened: (p) => `${p.actor} heeft de kaart ${q(p.card)} heropend`,
    cardAssigned: (p) => `${p.actor} heeft je de kaart ${q(p.card)} toegewezen`,
    comment: (p) => `${p.actor} reageerde op ${q(p.card)}: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} heeft je genoemd in een reactie op ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} heeft je genoemd in de kaart ${q(p.card)}`,
    cardDue: (p) => `De kaart ${q(p.card)} op ${q(p.board)} vervalt: ${p.when}`,
    invitation: (p) => `${p.actor} heeft het bord ${q(p.board)} met je gedeeld`,
    inviteSubject: (p) => `${p.actor} heeft je uitgenodigd voor het bord ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} heeft je uitgenodigd om samen te werken aan het bord ${q(p.board)}.\n\nMaak hier je account aan en doe mee:\n${p.link}\n\nDe link werkt één keer en verloopt over ${p.days} dagen.`,
    digestSubject: (p) => `${p.count} ongelezen ${p.count === 1 ? 'melding' : 'meldingen'}`,
    digestIntro: (p) => `Je hebt ${p.count} ongelezen ${p.count === 1 ? 'melding' : 'meldingen'}:`,
    digestOpen: 'Open je borden',
    resetSubject: 'Je wachtwoord opnieuw instellen',
    resetBody: (p) =>
      `Iemand vroeg om het wachtwoord van je account opnieuw in te stellen. Was jij dat, kies dan hier een nieuw:\n${p.link}\n\nZo niet, negeer deze mail.`,
    verifySubject: 'Bevestig je e-mailadres',
    verifyBody: (p) =>
      `Bevestig dat dit adres van jou is door deze link te openen:\n${p.link}\n\nTot dan bereiken uitnodigingen voor borden aan dit adres je account niet. De link werkt ${p.days} dagen; in de app kun je een nieuwe aanvragen. Heb je geen account bij ons, negeer deze mail dan.`,
    testSubject: 'Testmail van Tavla',
    testBody: (p) =>
      `${p.admin} stuurde deze testmail vanaf de beheerpagina van Tavla op ${p.link}.\n\nAls je hem leest, komt mail van deze installatie bij je aan.`,
    webhookDisabled: (p) =>
      `De webhook naar ${p.url} op ${q(p.board)} is uitgeschakeld na ${p.failures} mislukte bezorgingen op rij`,
  },
  pl: {
    cardCreated: (p) => `${p.actor} utworzył(a) kartę ${q(p.card)} na tablicy ${q(p.board)}`,
    cardMoved: (p) => `${p.actor} przeniósł(a) kartę ${q(p.card)} z ${q(p.from)} do ${q(p.to)}`,
    cardDone: (p) => `${p.actor} oznaczył(a) kartę ${q(p.card)} jako ukończoną`,
    cardReopened: (p) => `${p.actor} ponownie otworzył(a) kartę ${q(p.card)}`,
    cardAssigned: (p) => `${p.actor} przypisał(a) ci kartę ${q(p.card)}`,
    comment: (p) => `${p.actor} skomentował(a) ${q(p.card)}: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} wspomniał(a) o tobie w komentarzu do ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} wspomniał(a) o tobie na karcie ${q(p.card)}`,
    cardDue: (p) => `Termin karty ${q(p.card)} na tablicy ${q(p.board)}: ${p.when}`,
    invitation: (p) => `${p.actor} udostępnił(a) ci tablicę ${q(p.board)}`,
    inviteSubject: (p) => `${p.actor} zaprasza cię do tablicy ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} zaprasza cię do wspólnej pracy na tablicy ${q(p.board)}.\n\nUtwórz konto i dołącz tutaj:\n${p.link}\n\nLink działa jeden raz i wygasa za ${p.days} dni.`,
    digestSubject: (p) => `Nieprzeczytane powiadomienia: ${p.count}`,
    digestIntro: (p) => `Masz nieprzeczytane powiadomienia (${p.count}):`,
    digestOpen: 'Otwórz swoje tablice',
    resetSubject: 'Zresetuj hasło',
    resetBody: (p) =>
      `Ktoś poprosił o zresetowanie hasła do twojego konta. Jeśli to ty, wybierz nowe tutaj:\n${p.link}\n\nJeśli nie, zignoruj tę wiadomość.`,
    verifySubject: 'Potwierdź swój adres e-mail',
    verifyBody: (p) =>
      `Potwierdź, że ten adres należy do ciebie, otwierając ten link:\n${p.link}\n\nDo tego czasu zaproszenia do tablic wysłane na ten adres nie trafiają na twoje konto. Link działa przez ${p.days} dni; w aplikacji możesz poprosić o nowy. Jeśli nie masz u nas konta, zignoruj tę wiadomość.`,
    testSubject: 'Wiadomość testowa z Tavla',
    testBody: (p) =>
      `${p.admin} wysłał(a) tę wiadomość testową ze strony administracji Tavla pod adresem ${p.link}.\n\nJeśli ją czytasz, poczta z tej instancji do ciebie dociera.`,
    webhookDisabled: (p) =>
      `Webhook do ${p.url} na tablicy ${q(p.board)} został wyłączony po ${p.failures} nieudanych dostarczeniach z rzędu`,
  },
  pt: {
    cardCreated: (p) => `${p.actor} criou o cartão ${q(p.card)} em ${q(p.board)}`,
    cardMoved: (p) => `${p.actor} moveu o cartão ${q(p.card)} de ${q(p.from)} para ${q(p.to)}`,
    cardDone: (p) => `${p.actor} marcou o cartão ${q(p.card)} como concluído`,
    cardReopened: (p) => `${p.actor} reabriu o cartão ${q(p.card)}`,
    cardAssigned: (p) => `${p.actor} atribuiu-lhe o cartão ${q(p.card)}`,
    comment: (p) => `${p.actor} comentou em ${q(p.card)}: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} mencionou-o num comentário em ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} mencionou-o no cartão ${q(p.card)}`,
    cardDue: (p) => `O cartão ${q(p.card)} em ${q(p.board)} vence: ${p.when}`,
    invitation: (p) => `${p.actor} partilhou o quadro ${q(p.board)} consigo`,
    inviteSubject: (p) => `${p.actor} convidou-o para o quadro ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} convidou-o para colaborar no quadro ${q(p.board)}.\n\nCrie a sua conta e junte-se aqui:\n${p.link}\n\nO link funciona uma vez e expira em ${p.days} dias.`,
    digestSubject: (p) => `${p.count} ${p.count === 1 ? 'notificação não lida' : 'notificações não lidas'}`,
    digestIntro: (p) => `Tem ${p.count} ${p.count === 1 ? 'notificação não lida' : 'notificações não lidas'}:`,
    digestOpen: 'Abrir os seus quadros',
    resetSubject: 'Redefinir a palavra-passe',
    resetBody: (p) =>
      `Alguém pediu para redefinir a palavra-passe da sua conta. Se foi você, escolha uma nova aqui:\n${p.link}\n\nSe não, ignore este e-mail.`,
    verifySubject: 'Confirme o seu endereço de e-mail',
    verifyBody: (p) =>
      `Confirme que este endereço é seu abrindo esta ligação:\n${p.link}\n\nAté lá, os convites para quadros enviados para este endereço não chegam à sua conta. A ligação é válida durante ${p.days} dias; pode pedir uma nova na aplicação. Se não tem conta connosco, ignore este e-mail.`,
    testSubject: 'E-mail de teste do Tavla',
    testBody: (p) =>
      `${p.admin} enviou este e-mail de teste a partir da página de administração do Tavla em ${p.link}.\n\nSe o está a ler, o correio desta instância chega até si.`,
    webhookDisabled: (p) =>
      `O webhook para ${p.url} em ${q(p.board)} foi desativado após ${p.failures} entregas falhadas seguidas`,
  },
  cs: {
    cardCreated: (p) => `${p.actor} vytvořil(a) kartu ${q(p.card)} na tabuli ${q(p.board)}`,
    cardMoved: (p) => `${p.actor} přesunul(a) kartu ${q(p.card)} z ${q(p.from)} do ${q(p.to)}`,
    cardDone: (p) => `${p.actor} označil(a) kartu ${q(p.card)} jako hotovou`,
    cardReopened: (p) => `${p.actor} znovu otevřel(a) kartu ${q(p.card)}`,
    cardAssigned: (p) => `${p.actor} vám přiřadil(a) kartu ${q(p.card)}`,
    comment: (p) => `${p.actor} okomentoval(a) ${q(p.card)}: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} vás zmínil(a) v komentáři ke kartě ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} vás zmínil(a) na kartě ${q(p.card)}`,
    cardDue: (p) => `Termín karty ${q(p.card)} na tabuli ${q(p.board)}: ${p.when}`,
    invitation: (p) => `${p.actor} s vámi sdílí tabuli ${q(p.board)}`,
    inviteSubject: (p) => `${p.actor} vás zve na tabuli ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} vás zve ke spolupráci na tabuli ${q(p.board)}.\n\nZde si založte účet a připojte se:\n${p.link}\n\nOdkaz funguje jednou a vyprší za ${p.days} dní.`,
    digestSubject: (p) => `Nepřečtená oznámení: ${p.count}`,
    digestIntro: (p) => `Máte nepřečtená oznámení (${p.count}):`,
    digestOpen: 'Otevřít vaše tabule',
    resetSubject: 'Obnovení hesla',
    resetBody: (p) =>
      `Někdo požádal o obnovení hesla k vašemu účtu. Pokud jste to byli vy, zvolte nové zde:\n${p.link}\n\nPokud ne, tento e-mail ignorujte.`,
    verifySubject: 'Potvrďte svou e-mailovou adresu',
    verifyBody: (p) =>
      `Potvrďte prosím, že tato adresa patří vám, otevřením tohoto odkazu:\n${p.link}\n\nDo té doby se pozvánky na tabule zaslané na tuto adresu k vašemu účtu nedostanou. Odkaz platí ${p.days} dní; v aplikaci si můžete vyžádat nový. Pokud u nás účet nemáte, tento e-mail ignorujte.`,
    testSubject: 'Zkušební e-mail z Tavla',
    testBody: (p) =>
      `${p.admin} poslal(a) tento zkušební e-mail ze stránky správy Tavla na ${p.link}.\n\nPokud ho čtete, pošta z této instance k vám dorazí.`,
    webhookDisabled: (p) =>
      `Webhook na ${p.url} na tabuli ${q(p.board)} byl vypnut po ${p.failures} neúspěšných doručeních za sebou`,
  },
  uk: {
    cardCreated: (p) => `${p.actor} створив(ла) картку ${q(p.card)} на дошці ${q(p.board)}`,
    cardMoved: (p) => `${p.actor} перемістив(ла) картку ${q(p.card)} з ${q(p.from)} до ${q(p.to)}`,
    cardDone: (p) => `${p.actor} позначив(ла) картку ${q(p.card)} як виконану`,
    cardReopened: (p) => `${p.actor} знову відкрив(ла) картку ${q(p.card)}`,
    cardAssigned: (p) => `${p.actor} призначив(ла) вам картку ${q(p.card)}`,
    comment: (p) => `${p.actor} прокоментував(ла) ${q(p.card)}: ${p.excerpt}`,
    mentionInComment: (p) => `${p.actor} згадав(ла) вас у коментарі до ${q(p.card)}`,
    mentionInCard: (p) => `${p.actor} згадав(ла) вас у картці ${q(p.card)}`,
    cardDue: (p) => `Термін картки ${q(p.card)} на дошці ${q(p.board)}: ${p.when}`,
    invitation: (p) => `${p.actor} поділився(лася) з вами дошкою ${q(p.board)}`,
    inviteSubject: (p) => `${p.actor} запрошує вас до дошки ${q(p.board)}`,
    inviteBody: (p) =>
      `${p.actor} запрошує вас до спільної роботи на дошці ${q(p.board)}.\n\nСтворіть обліковий запис і приєднайтеся тут:\n${p.link}\n\nПосилання діє один раз і втрачає чинність через ${p.days} днів.`,
    digestSubject: (p) => `Непрочитані сповіщення: ${p.count}`,
    digestIntro: (p) => `У вас непрочитані сповіщення (${p.count}):`,
    digestOpen: 'Відкрити ваші дошки',
    resetSubject: 'Скидання пароля',
    resetBody: (p) =>
      `Хтось попросив скинути пароль вашого облікового запису. Якщо це були ви, оберіть новий тут:\n${p.link}\n\nЯкщо ні, проігноруйте цей лист.`,
    verifySubject: 'Підтвердьте свою адресу e-mail',
    verifyBody: (p) =>
      `Підтвердьте, що ця адреса належить вам, відкривши це посилання:\n${p.link}\n\nДо того запрошення до дошок, надіслані на цю адресу, не потрапляють до вашого облікового запису. Посилання діє ${p.days} днів; у застосунку можна попросити нове. Якщо у вас немає облікового запису в нас, проігноруйте цей лист.`,
    testSubject: 'Тестовий лист від Tavla',
    testBody: (p) =>
      `${p.admin} надіслав(ла) цей тестовий лист зі сторінки адміністрування Tavla за адресою ${p.link}.\n\nЯкщо ви його читаєте, пошта з цього екземпляра до вас доходить.`,
    webhookDisabled: (p) => `Вебхук на ${p.url} на дошці ${q(p.board)} вимкнено після ${p.failures} невдалих доставок поспіль`,
  },
};

/** A date as a person of that language reads it, in UTC (the server knows no one's time zone). */
export function formatDate(iso: string, language: Language): string {
  return (
    new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso)) + ' UTC'
  );
}
