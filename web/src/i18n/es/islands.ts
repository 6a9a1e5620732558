// The Spanish of the texts that islands show (shipped to the browser with the Spanish islands: only these).
// Also the ui/ parts' texts (Field's "(optional)", PostCard's "Read More", Stars' label): any ui/ part may be
// rendered inside an island. Texts shown only in the browser (toasts, the DOT lookup's offer, the blog's empty state,
// "Processing...") never reach the prerender, so the build's list of missing texts cannot catch them: keep every
// t() of islands/ and ui/ here.
import { translator } from './translate';

const table: Record<string, string> = {
  // Shared by the forms (ui/Field, useLeadForm).
  "(optional)": "(opcional)",
  "Website": "Sitio web",
  "Submission Error": "Error al enviar",
  "Not Sent": "No se envió",
  "Too Many Attempts": "Demasiados intentos",
  "Sending...": "Enviando...",
  "Full Name": "Nombre completo",
  "Phone": "Teléfono",
  "DOT Number": "Número DOT",

  // QuoteForm.
  "Consent Required": "Se requiere su autorización",
  "Please agree to our communication terms to proceed.": "Para continuar, acepte nuestros términos de comunicación.",
  "Quote request submitted!": "¡Solicitud de cotización enviada!",
  "A trucking insurance specialist will contact you shortly.": "Un especialista en seguros de camiones se comunicará con usted en breve.",
  "Free and without obligation. Most quotes within 24 hours.": "Gratis y sin compromiso. La mayoría de las cotizaciones, en menos de 24 horas.",
  "Email": "Correo electrónico",
  "Company": "Empresa",
  "Insurance Type": "Tipo de seguro",
  "Select insurance type": "Seleccione el tipo de seguro",
  "Number of Vehicles": "Número de vehículos",
  "For trucking businesses with a USDOT number (1-8 digits).": "Para empresas de transporte con número USDOT (de 1 a 8 dígitos).",
  "Processing...": "Procesando...",
  "Get My Free Quote": "Obtener mi cotización gratis",
  "Request received": "Solicitud recibida",
  "Request another quote": "Solicitar otra cotización",

  // CarrierConfirm: the DOT lookup's offer.
  "Is this your company?": "¿Es esta su empresa?",
  "(doing business as {name})": "(opera como {name})",
  "1 power unit": "1 unidad motriz",
  "{count} power units": "{count} unidades motrices",
  "Yes, that's us": "Sí, somos nosotros",
  "No": "No",

  // DetailsForm: "Speed up your quote".
  "Details received!": "¡Recibimos sus datos!",
  "Thank you: your specialist has what the underwriters ask for.": "Gracias: su especialista ya tiene lo que piden los suscriptores.",
  "Speed up your quote": "Agilice su cotización",
  "Optional. Everything here is what an underwriter asks on the first call; send what you know.": "Opcional. Esto es lo que un suscriptor pregunta en la primera llamada; envíe lo que sepa.",
  "Choose...": "Elija...",
  "MC Number": "Número MC",
  "Years in Business": "Años en el negocio",
  "Operating Radius": "Radio de operación",
  "States You Operate In": "Estados donde opera",
  "Two-letter codes, such as TX, OK, NM.": "Códigos de dos letras, como TX, OK, NM.",
  "Commodities You Haul": "Carga que transporta",
  "Other Commodities": "Otra carga",
  "If you chose Other.": "Si su carga no aparece en la lista.",
  "Hazardous Materials": "Materiales peligrosos (hazmat)",
  "Yes, we haul hazmat": "Sí, transportamos hazmat",
  "No hazmat": "No transportamos hazmat",
  "Power Units": "Unidades motrices",
  "Trailers": "Remolques",
  "Drivers": "Conductores",
  "Claims in the Last 3 Years": "Reclamos en los últimos 3 años",
  "Current Insurer": "Aseguradora actual",
  "Current Policy Expires": "Vencimiento de la póliza actual",
  "New Policy Should Start": "Inicio de la nueva póliza",
  "Best Time to Call": "Mejor hora para llamarle",
  "Send Details": "Enviar datos",
  "Details received": "Datos recibidos",

  // ContactForm.
  "Message received!": "¡Mensaje recibido!",
  "Thank you for contacting us. We'll respond shortly.": "Gracias por comunicarse con nosotros. Le responderemos en breve.",
  "Send Us a Message": "Envíenos un mensaje",
  "All fields are required. We reply within 24 hours.": "Todos los campos son obligatorios. Respondemos en menos de 24 horas.",
  "Email Address": "Correo electrónico",
  "Subject": "Asunto",
  "Message": "Mensaje",
  "Send Message": "Enviar mensaje",
  "Message received": "Mensaje recibido",
  "Send another message": "Enviar otro mensaje",

  // CoiForm: the certificate of insurance request.
  "Certificate request received!": "¡Recibimos su solicitud de certificado!",
  "We will e-mail the certificate, usually the same business day.": "Le enviaremos el certificado por correo electrónico, normalmente el mismo día hábil.",
  "Request a Certificate": "Solicite un certificado",
  "For existing clients. Fields not marked optional are required.": "Para clientes actuales. Los campos que no dicen “opcional” son obligatorios.",
  "You": "Sus datos",
  "Your Name": "Su nombre",
  "Email (we send the certificate here)": "Correo electrónico (aquí le enviamos el certificado)",
  "The insured": "El asegurado",
  "Insured Name (as on the policy)": "Nombre del asegurado (como aparece en la póliza)",
  "1-8 digits.": "De 1 a 8 dígitos.",
  "The certificate holder": "El titular del certificado",
  "Certificate Holder (broker, shipper, lessor...)": "Titular del certificado (bróker, embarcador, arrendador...)",
  "Holder's Mailing Address": "Dirección postal del titular",
  "Add the holder as additional insured": "Agregar al titular como asegurado adicional (additional insured)",
  "Only if their contract asks for it; we check your policy allows it.": "Solo si el contrato del titular lo exige; verificamos que su póliza lo permita.",
  "Include a waiver of subrogation": "Incluir una renuncia de subrogación (waiver of subrogation)",
  "Only if their contract asks for it.": "Solo si el contrato del titular lo exige.",
  "Needed By": "Fecha en que lo necesita",
  "Notes": "Notas",
  "Request Certificate": "Solicitar certificado",
  "Certificate request received": "Solicitud de certificado recibida",
  "Request another certificate": "Solicitar otro certificado",

  // OptOutForm: the opt-out request and what happens next.
  "Opt-out request recorded": "Solicitud de baja registrada",
  "Stop another number or address": "Dar de baja otro número o dirección",
  "Your Opt-Out Request": "Su solicitud de baja",
  "The number or address to stop contacting": "El número o la dirección a los que no debemos contactar",
  "Give the phone number, the e-mail address, or both.": "Indique el número de teléfono, el correo electrónico o ambos.",
  "Phone Number": "Número de teléfono",
  "Note": "Nota",
  "Stop contacting me": "Dejen de contactarme",
  "What happens next": "Qué pasa ahora",

  // BlogExplorer and the post cards.
  "Search articles": "Buscar artículos",
  "Search articles...": "Buscar artículos...",
  "Filter by category": "Filtrar por categoría",
  "All Categories": "Todas las categorías",
  "{count} articles": "{count} artículos",
  "Showing {shown} of {total} articles": "Mostrando {shown} de {total} artículos",
  "Featured Article": "Artículo destacado",
  "No articles found": "No se encontraron artículos",
  "Try adjusting your search or category filter": "Pruebe con otra búsqueda o con otra categoría",
  "Reset Filters": "Quitar filtros",
  "Latest Articles": "Artículos recientes",
  "Matching Articles": "Artículos encontrados",
  "Read More": "Leer más",

  // Toaster, Stars.
  "Dismiss notification": "Cerrar notificación",
  "Rated {rating} out of 5": "Calificación: {rating} de 5",

  // RoadCanvas: the hero animation's pause button.
  "Pause animation": "Pausar animación",
  "Play animation": "Reanudar animación",
};

export const { t, missingTexts } = translator(table, 'web/src/i18n/es/islands.ts');
