//! The Spanish of the contract's English texts: every field message, choice label and form sentence of
//! [`crate::forms`] and the server's own sentences of [`crate::answers`], as the server answers them and
//! `contract.es.ts` gives them to the Spanish pages. US Spanish for owner-operators: "usted", the insurance words of
//! the US Spanish-language market; DOT, MC and hot shot stay as they are.

/// (English, Spanish) pairs, one a line: read as a table, so left as one.
#[rustfmt::skip]
const TEXTS: &[(&str, &str)] = &[
    // The schedules of a quote's details (issue 39).
    ("Please list at most 50 vehicles here: your specialist will take the rest", "Anote como máximo 50 vehículos aquí: su especialista tomará el resto"),
    ("The first line must name the columns: year, make, model, vin, stated_value, garaging_zip", "La primera línea debe nombrar las columnas: year, make, model, vin, stated_value, garaging_zip"),
    ("Please list at most 50 drivers here: your specialist will take the rest", "Anote como máximo 50 choferes aquí: su especialista tomará el resto"),
    ("The first line must name the columns: name, date_of_birth, license_state, years_experience, violations_3y, accidents_3y", "La primera línea debe nombrar las columnas: name, date_of_birth, license_state, years_experience, violations_3y, accidents_3y"),
    ("Please list at most 20 losses here: attach the loss runs for the rest", "Anote como máximo 20 siniestros aquí: adjunte los historiales de siniestros para el resto"),
    ("The first line must name the columns: date, kind, amount, description", "La primera línea debe nombrar las columnas: date, kind, amount, description"),
    ("For your drivers' safety, we never take a license number online: leave it out, we will ask for it by phone", "Por la seguridad de sus choferes, nunca recibimos un número de licencia por internet: omítalo, se lo pediremos por teléfono"),
    ("This row could not be read: each row needs the list's columns, separated by commas", "No se pudo leer esta fila: cada fila necesita las columnas de la lista, separadas por comas"),
    ("This column is not one of the list's: please remove it", "Esta columna no es de la lista: quítela"),
    ("Please send a list of rows, or CSV text with a header line", "Envíe una lista de filas, o texto CSV con una línea de encabezado"),
    ("Row {row}, {column}: {message}", "Fila {row}, {column}: {message}"),
    ("Row {row}: {message}", "Fila {row}: {message}"),
    ("Years of experience must be a whole number from 0 to 70", "Los años de experiencia deben ser un número entero de 0 a 70"),
    ("Violations in 3 years must be a whole number from 0 to 99", "Las infracciones en 3 años deben ser un número entero de 0 a 99"),
    ("Accidents in 3 years must be a whole number from 0 to 99", "Los accidentes en 3 años deben ser un número entero de 0 a 99"),
    ("Please enter the date of the loss as a valid date, such as 2024-03-15", "Escriba la fecha del siniestro como una fecha válida, por ejemplo 2024-03-15"),
    ("The date of a loss must be within the last 10 years, and not in the future", "La fecha de un siniestro debe estar dentro de los últimos 10 años, y no en el futuro"),
    ("Please say what kind of loss it was", "Indique qué tipo de siniestro fue"),
    ("Kind must be liability, physical_damage, cargo or other", "El tipo debe ser liability, physical_damage, cargo u other"),
    ("Please enter the amount of the loss in dollars", "Escriba el monto del siniestro en dólares"),
    ("Amount must be a whole number of dollars, such as 12500", "El monto debe ser un número entero de dólares, por ejemplo 12500"),
    ("Amount must be from $0 to $100,000,000", "El monto debe ser de $0 a $100.000.000"),
    ("Description must be less than 200 characters", "La descripción debe tener menos de 200 caracteres"),
    ("Liability", "Responsabilidad civil"),
    ("Physical damage", "Daños físicos"),
    ("Cargo", "Carga"),
    // The lead forms' fields.
    ("Name must be at least 2 characters", "El nombre debe tener al menos 2 caracteres"),
    ("Name must be less than 100 characters", "El nombre debe tener menos de 100 caracteres"),
    ("Name can only contain letters, spaces, hyphens, and apostrophes", "El nombre solo puede contener letras, espacios, guiones y apóstrofos"),
    ("Email must be less than 255 characters", "El correo electrónico debe tener menos de 255 caracteres"),
    ("Please enter a valid email address", "Escriba un correo electrónico válido"),
    ("Please enter an email address without accented or special letters (such as é or ñ)", "Escriba un correo electrónico sin acentos ni letras especiales (como é o ñ)"),
    ("Please enter a valid US phone number", "Escriba un número de teléfono válido de EE. UU."),
    ("Company name must be less than 200 characters", "El nombre de la compañía debe tener menos de 200 caracteres"),
    ("Please select an insurance type", "Seleccione un tipo de seguro"),
    ("Please enter the number of vehicles", "Escriba la cantidad de vehículos"),
    ("Invalid vehicle count format", "La cantidad de vehículos no es válida"),
    ("Number of vehicles must be from 1 to 100,000", "La cantidad de vehículos debe ser de 1 a 100.000"),
    ("DOT number must be 1-8 digits", "El número DOT debe tener de 1 a 8 dígitos"),
    ("You must agree to our communication terms", "Debe aceptar nuestros términos de comunicación"),
    ("Subject must be at least 5 characters", "El asunto debe tener al menos 5 caracteres"),
    ("Subject must be less than 200 characters", "El asunto debe tener menos de 200 caracteres"),
    ("Message must be at least 10 characters", "El mensaje debe tener al menos 10 caracteres"),
    ("Message must be less than 2000 characters", "El mensaje debe tener menos de 2000 caracteres"),
    // The certificate of insurance request.
    ("Insured name must be at least 2 characters", "El nombre del asegurado debe tener al menos 2 caracteres"),
    ("Insured name must be less than 200 characters", "El nombre del asegurado debe tener menos de 200 caracteres"),
    ("Certificate holder must be at least 2 characters", "El titular del certificado debe tener al menos 2 caracteres"),
    ("Certificate holder must be less than 200 characters", "El titular del certificado debe tener menos de 200 caracteres"),
    ("Please enter the certificate holder's full mailing address", "Escriba la dirección postal completa del titular del certificado"),
    ("Holder address must be less than 500 characters", "La dirección del titular debe tener menos de 500 caracteres"),
    ("Additional insured must be yes or no", "Asegurado adicional debe ser sí o no"),
    ("Waiver of subrogation must be yes or no", "Renuncia de subrogación debe ser sí o no"),
    ("Please enter the date you need the certificate by", "Escriba la fecha en que necesita el certificado"),
    ("Please enter a valid date that is today or later", "Escriba una fecha válida, de hoy en adelante"),
    ("Notes must be less than 2000 characters", "Las notas deben tener menos de 2000 caracteres"),
    // "Speed up your quote".
    ("This form has expired. Please call us with your details.", "Este formulario ya venció. Llámenos para darnos sus datos."),
    ("MC number must be 1-8 digits", "El número MC debe tener de 1 a 8 dígitos"),
    ("Years in business must be a whole number from 0 to 100", "Los años en el negocio deben ser un número entero de 0 a 100"),
    ("Please choose local, regional or long haul", "Elija local, regional o larga distancia"),
    ("Operating states must be two-letter US state codes, such as TX, OK", "Los estados donde opera deben ser claves de estado de EE. UU. de dos letras, como TX, OK"),
    ("Please choose commodities from the list", "Elija de la lista las mercancías que transporta"),
    ("Other commodities must be less than 200 characters", "Otras mercancías debe tener menos de 200 caracteres"),
    ("Please say which other commodities you haul", "Indique qué otras mercancías transporta"),
    ("Hazmat must be yes or no", "Materiales peligrosos (hazmat) debe ser sí o no"),
    ("Power units must be a whole number from 0 to 10000", "Las unidades motrices deben ser un número entero de 0 a 10000"),
    ("Trailers must be a whole number from 0 to 10000", "Los tráileres deben ser un número entero de 0 a 10000"),
    ("Drivers must be a whole number from 0 to 10000", "Los choferes deben ser un número entero de 0 a 10000"),
    ("Current insurer must be less than 200 characters", "La aseguradora actual debe tener menos de 200 caracteres"),
    ("Policy expiration must be a valid date", "El vencimiento de la póliza debe ser una fecha válida"),
    ("Effective date must be a valid date", "La fecha de inicio de la póliza debe ser una fecha válida"),
    ("Claims in the last 3 years must be a whole number from 0 to 1000", "Los reclamos de los últimos 3 años deben ser un número entero de 0 a 1000"),
    ("Please choose a time to call from the list", "Elija de la lista una hora para llamarle"),
    // The details' choices.
    ("Local (up to 100 miles)", "Local (hasta 100 millas)"),
    ("Regional (up to 500 miles)", "Regional (hasta 500 millas)"),
    ("Long haul (over 500 miles)", "Larga distancia (más de 500 millas)"),
    ("General freight", "Carga general"),
    ("Building materials", "Materiales de construcción"),
    ("Machinery and large objects", "Maquinaria y objetos grandes"),
    ("Refrigerated food", "Alimentos refrigerados"),
    ("Dry bulk and grain", "Granel seco y granos"),
    ("Sand, gravel and dirt", "Arena, grava y tierra"),
    ("Logs, poles and lumber", "Troncos, postes y madera"),
    ("Metal: sheets, coils, rolls", "Metal: láminas, bobinas, rollos"),
    ("Motor vehicles (car hauling)", "Vehículos de motor (transporte de autos)"),
    ("Intermodal containers", "Contenedores intermodales"),
    ("Household goods", "Mudanzas (artículos del hogar)"),
    ("Livestock", "Ganado"),
    ("Liquids and gases (tank)", "Líquidos y gases (tanque)"),
    ("Other", "Otro"),
    ("Morning (8 a.m. to noon)", "Mañana (8 a.m. a mediodía)"),
    ("Afternoon (noon to 5 p.m.)", "Tarde (mediodía a 5 p.m.)"),
    ("Early evening (5 to 7 p.m.)", "Al final de la tarde (5 a 7 p.m.)"),
    ("Any time during business hours", "Cualquier hora en horario de oficina"),
    // The opt-out form.
    ("Please enter the phone number or the email address to stop contacting (or both)", "Escriba el número de teléfono o el correo electrónico al que no debemos contactar (o ambos)"),
    ("Note must be less than 500 characters", "La nota debe tener menos de 500 caracteres"),
    ("Please wait 10 minutes before sending another opt-out request, or call us.", "Espere 10 minutos antes de enviar otra solicitud de baja, o llámenos."),
    ("There was an error recording your request. Please try again, or call us.", "Hubo un error al registrar su solicitud. Inténtelo de nuevo o llámenos."),
    // The client-service forms' shared fields (claim, policy change).
    ("Please enter a phone number we can reach you at", "Escriba un número de teléfono en el que podamos localizarle"),
    ("Policy number must be less than 40 characters", "El número de póliza debe tener menos de 40 caracteres"),
    ("Policy number can only contain letters, digits, spaces, hyphens, slashes and dots", "El número de póliza solo puede contener letras, dígitos, espacios, guiones, barras y puntos"),
    ("Please choose a US state by its two-letter code, such as TX", "Elija un estado de EE. UU. por su clave de dos letras, como TX"),
    // The first notice of loss.
    ("Please enter the date of the loss", "Escriba la fecha del siniestro"),
    ("Please enter the date of the loss as a valid date", "Escriba la fecha del siniestro como una fecha válida"),
    ("The date of the loss cannot be in the future", "La fecha del siniestro no puede ser una fecha futura"),
    ("Please enter the time of the loss (an estimate is fine)", "Escriba la hora del siniestro (basta una hora aproximada)"),
    ("Please enter the time of the loss in hours and minutes, such as 14:30", "Escriba la hora del siniestro en horas y minutos, como 14:30"),
    ("The time of the loss cannot be later than the time now", "La hora del siniestro no puede ser posterior a la hora actual"),
    ("Please enter the city or nearest town where it happened", "Escriba la ciudad o el pueblo más cercano donde ocurrió"),
    ("City must be less than 100 characters", "La ciudad debe tener menos de 100 caracteres"),
    ("Please choose the state where it happened", "Elija el estado donde ocurrió"),
    ("Please describe what happened in at least 10 characters", "Describa lo que pasó en al menos 10 caracteres"),
    ("What happened must be less than 2000 characters", "Lo que pasó debe tener menos de 2000 caracteres"),
    ("Please choose the insurer from the list, or Not sure", "Elija la aseguradora de la lista, o No estoy seguro"),
    ("Not sure", "No estoy seguro"),
    ("Vehicles involved must be less than 500 characters", "Los vehículos involucrados deben tener menos de 500 caracteres"),
    ("Please choose an answer from the list for injuries", "Elija de la lista una respuesta sobre heridos"),
    ("Police report number must be less than 50 characters", "El número del reporte de policía debe tener menos de 50 caracteres"),
    ("Please choose an answer from the list for towing", "Elija de la lista una respuesta sobre la grúa"),
    ("Yes, someone was hurt", "Sí, hubo heridos"),
    ("No one was hurt", "No hubo heridos"),
    ("Not known yet", "Todavía no se sabe"),
    ("Yes, it was towed", "Sí, se lo llevó la grúa"),
    ("No, it was not towed", "No, no se lo llevó la grúa"),
    ("Please wait 10 minutes before reporting another claim. If it is urgent, call us or your insurer's claims line.", "Espere 10 minutos antes de reportar otro siniestro. Si es urgente, llámenos o llame a la línea de reclamos de su aseguradora."),
    ("There was an error sending your claim. Please call us or your insurer's claims line now.", "Hubo un error al enviar su reclamo. Llámenos ahora o llame a la línea de reclamos de su aseguradora."),
    // The policy change request.
    ("Please choose the change you need", "Elija el cambio que necesita"),
    ("Please choose the change you need from the list", "Elija de la lista el cambio que necesita"),
    ("Please enter the date the change should take effect", "Escriba la fecha en que debe entrar en vigor el cambio"),
    ("Please enter the effective date as a valid date", "Escriba la fecha de vigencia como una fecha válida"),
    ("The effective date cannot be in the past", "La fecha de vigencia no puede ser una fecha pasada"),
    ("The effective date must be within a year from today", "La fecha de vigencia debe estar dentro de un año a partir de hoy"),
    ("Please enter the vehicle's model year", "Escriba el año del modelo del vehículo"),
    ("Please enter the model year as 4 digits, such as 2021", "Escriba el año del modelo con 4 dígitos, como 2021"),
    ("The model year must be from 1900 to next year", "El año del modelo debe ser de 1900 al año que viene"),
    ("Please enter the vehicle's make, such as Freightliner", "Escriba la marca del vehículo, como Freightliner"),
    ("Make must be less than 50 characters", "La marca debe tener menos de 50 caracteres"),
    ("Please enter the vehicle's model, such as Cascadia", "Escriba el modelo del vehículo, como Cascadia"),
    ("Model must be less than 50 characters", "El modelo debe tener menos de 50 caracteres"),
    ("Please enter the vehicle's 17-character VIN", "Escriba el VIN de 17 caracteres del vehículo"),
    ("A VIN is 17 letters and digits, without I, O or Q", "Un VIN tiene 17 letras y dígitos, sin I, O ni Q"),
    ("This VIN's check digit (the 9th character) does not match the others: please check each character", "El dígito de control de este VIN (el 9.º carácter) no corresponde a los demás: revise cada carácter"),
    ("Please enter the vehicle's stated value in dollars", "Escriba el valor declarado del vehículo en dólares"),
    ("Stated value must be a whole number of dollars, such as 85000", "El valor declarado debe ser una cantidad entera de dólares, como 85000"),
    ("Stated value must be from $100 to $5,000,000", "El valor declarado debe ser de $100 a $5.000.000"),
    ("Please enter the ZIP code where the vehicle is kept", "Escriba el código postal (ZIP) donde se guarda el vehículo"),
    ("Please enter a US ZIP code, such as 75201", "Escriba un código postal (ZIP) de EE. UU., como 75201"),
    ("Please enter the trailer's model year", "Escriba el año del modelo del tráiler"),
    ("Please enter the trailer's make, such as Great Dane", "Escriba la marca del tráiler, como Great Dane"),
    ("Trailer make must be less than 50 characters", "La marca del tráiler debe tener menos de 50 caracteres"),
    ("Please enter the trailer's VIN or serial number", "Escriba el VIN o el número de serie del tráiler"),
    ("Please enter the trailer's 17-character VIN (no I, O or Q), or for an older trailer its serial number", "Escriba el VIN de 17 caracteres del tráiler (sin I, O ni Q) o, si es un tráiler antiguo, su número de serie"),
    ("Trailer stated value must be a whole number of dollars, such as 35000", "El valor declarado del tráiler debe ser una cantidad entera de dólares, como 35000"),
    ("Trailer stated value must be from $100 to $5,000,000", "El valor declarado del tráiler debe ser de $100 a $5.000.000"),
    ("Please enter the driver's full name", "Escriba el nombre completo del chofer"),
    ("Driver name must be at least 2 characters", "El nombre del chofer debe tener al menos 2 caracteres"),
    ("Driver name must be less than 100 characters", "El nombre del chofer debe tener menos de 100 caracteres"),
    ("Driver name can only contain letters, spaces, hyphens, and apostrophes", "El nombre del chofer solo puede contener letras, espacios, guiones y apóstrofos"),
    ("Please enter the driver's date of birth", "Escriba la fecha de nacimiento del chofer"),
    ("Please enter the driver's date of birth as a valid date", "Escriba la fecha de nacimiento del chofer como una fecha válida"),
    ("The driver must be 18 to 100 years old: please check the date of birth", "El chofer debe tener de 18 a 100 años: revise la fecha de nacimiento"),
    ("Please choose the state that issued the driver's license", "Elija el estado que expidió la licencia del chofer"),
    ("Please choose the driver's license class", "Elija la clase de licencia del chofer"),
    ("Please choose license class A, B or C", "Elija la clase de licencia A, B o C"),
    ("Class A", "Clase A"),
    ("Class B", "Clase B"),
    ("Class C", "Clase C"),
    ("Please enter the driver's hire date", "Escriba la fecha de contratación del chofer"),
    ("Please enter the hire date as a valid date", "Escriba la fecha de contratación como una fecha válida"),
    ("The hire date cannot be in the future", "La fecha de contratación no puede ser una fecha futura"),
    ("Please enter the full new address", "Escriba la nueva dirección completa"),
    ("New address must be less than 500 characters", "La nueva dirección debe tener menos de 500 caracteres"),
    ("Lienholder or loss payee name must be at least 2 characters", "El nombre del acreedor prendario o beneficiario de pérdida debe tener al menos 2 caracteres"),
    ("Lienholder or loss payee name must be less than 200 characters", "El nombre del acreedor prendario o beneficiario de pérdida debe tener menos de 200 caracteres"),
    ("Please enter the lienholder's or loss payee's full mailing address", "Escriba la dirección postal completa del acreedor prendario o beneficiario de pérdida"),
    ("Lienholder address must be less than 500 characters", "La dirección del acreedor prendario debe tener menos de 500 caracteres"),
    ("Vehicle or trailer must be less than 200 characters", "El vehículo o tráiler debe tener menos de 200 caracteres"),
    ("Please describe the change in at least 10 characters", "Describa el cambio en al menos 10 caracteres"),
    ("Details must be less than 2000 characters", "Los detalles deben tener menos de 2000 caracteres"),
    ("Add a vehicle", "Agregar un vehículo"),
    ("Remove a vehicle", "Quitar un vehículo"),
    ("Add a trailer", "Agregar un tráiler"),
    ("Remove a trailer", "Quitar un tráiler"),
    ("Add a driver", "Agregar un chofer"),
    ("Remove a driver", "Quitar un chofer"),
    ("Change the mailing or garaging address", "Cambiar la dirección postal o de resguardo del vehículo"),
    ("Change the lienholder or loss payee", "Cambiar el acreedor prendario o beneficiario de pérdida"),
    ("Something else", "Otro cambio"),
    ("No change is in force until we confirm it to you.", "Ningún cambio está vigente hasta que se lo confirmemos."),
    ("For your driver's safety, we never ask for a license number online: we will ask for it by phone.", "Por la seguridad de su chofer, nunca pedimos un número de licencia por internet: se lo pediremos por teléfono."),
    ("Please wait 10 minutes before sending another change request, or call us.", "Espere 10 minutos antes de enviar otra solicitud de cambio, o llámenos."),
    ("There was an error sending your change request. Please try again, or call us.", "Hubo un error al enviar su solicitud de cambio. Inténtelo de nuevo o llámenos."),
    // The forms' sentences.
    ("Please wait 10 minutes before submitting another request.", "Espere 10 minutos antes de enviar otra solicitud."),
    ("Please wait 10 minutes before submitting another message.", "Espere 10 minutos antes de enviar otro mensaje."),
    ("Please wait 10 minutes before sending your details again.", "Espere 10 minutos antes de volver a enviar sus datos."),
    ("There was an error submitting your request. Please try again.", "Hubo un error al enviar su solicitud. Inténtelo de nuevo."),
    ("We're experiencing technical difficulties. Please try again later.", "Tenemos problemas técnicos. Inténtelo de nuevo más tarde."),
    ("There was an error submitting your request. Please try again, or call us.", "Hubo un error al enviar su solicitud. Inténtelo de nuevo o llámenos."),
    ("There was an error saving your details. Please try again, or call us.", "Hubo un error al guardar sus datos. Inténtelo de nuevo o llámenos."),
    // The server's own sentences (crate::answers).
    ("Please correct the fields marked below.", "Corrija los campos marcados abajo."),
    ("Too Many Attempts", "Demasiados intentos"),
    ("We're experiencing technical difficulties. Please try again later, or call us.", "Tenemos problemas técnicos. Inténtelo de nuevo más tarde o llámenos."),
    ("The server is busy. Please try again in a moment.", "El servidor está ocupado. Inténtelo de nuevo en un momento."),
    ("What you sent is too long for us to accept. Please shorten it and send it again.", "Lo que envió es demasiado largo para aceptarlo. Acórtelo y envíelo de nuevo."),
    ("Your browser sent something we could not read. Please fill in the form and send it again.", "Su navegador envió algo que no pudimos leer. Llene el formulario y envíelo de nuevo."),
    ("Send the lead as application/json (or application/x-www-form-urlencoded).", "Envíe la solicitud como application/json (o application/x-www-form-urlencoded)."),
    ("The request body is larger than 64 KiB.", "El cuerpo de la solicitud pasa de 64 KiB."),
    ("The request body is not valid UTF-8 text.", "El cuerpo de la solicitud no es texto UTF-8 válido."),
    ("The request body could not be read.", "No se pudo leer el cuerpo de la solicitud."),
    ("The request body is not valid JSON.", "El cuerpo de la solicitud no es JSON válido."),
    ("Send the lead as a JSON object.", "Envíe la solicitud como un objeto JSON."),
    ("`submission_id` must be 16 to 100 letters, digits, - or _.", "`submission_id` debe tener de 16 a 100 letras, dígitos, - o _."),
    ("The field `{field}` must be a list of text.", "El campo `{field}` debe ser una lista de textos."),
    ("The field `{field}` must be text, a number or true/false.", "El campo `{field}` debe ser texto, un número o true/false."),
    ("We could not find the quote request these details belong to. Please call us with them.", "No encontramos la solicitud de cotización de estos datos. Llámenos para dárnoslos."),
    ("Details can be added within 24 hours of a quote request. Please call us with them instead.", "Los datos se pueden agregar en las 24 horas siguientes a la solicitud de cotización. Llámenos para dárnoslos."),
    ("The request could not be read. Send a JSON object.", "No se pudo leer la solicitud. Envíe un objeto JSON."),
    ("There is nothing at this address.", "No hay nada en esta dirección."),
    ("This address does not accept that method.", "Esta dirección no acepta ese método."),
    ("The request body is too large.", "El cuerpo de la solicitud es demasiado grande."),
    ("Send the request as application/json.", "Envíe la solicitud como application/json."),
    ("The request body has the wrong shape.", "El cuerpo de la solicitud no tiene la forma esperada."),
    ("Too many requests. Please wait and try again.", "Demasiadas solicitudes. Espere e inténtelo de nuevo."),
    ("Something went wrong on our side. Please try again later.", "Algo salió mal de nuestro lado. Inténtelo de nuevo más tarde."),
    ("The request could not be handled.", "No se pudo atender la solicitud."),
];

/// The Spanish of `english`, when the table has it.
pub(crate) fn text(english: &str) -> Option<&'static str> {
    TEXTS
        .iter()
        .find(|(en, _)| *en == english)
        .map(|(_, es)| *es)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::forms::{self, claim, details, policy_change, schedules};

    /// Every English text of the contract a visitor may read.
    fn english_texts() -> BTreeSet<&'static str> {
        let mut texts = BTreeSet::new();
        for form in forms::FORMS
            .into_iter()
            .chain([&forms::DETAILS, &forms::OPT_OUT])
        {
            texts.extend([form.rate_limit_message, form.failure_message]);
            for field in form.fields {
                let limits = [field.min, field.max].into_iter().flatten();
                texts.extend(limits.map(|limit| limit.message));
                texts.extend(
                    field
                        .missing
                        .into_iter()
                        .chain(field.invalid)
                        .chain(field.out_of_range)
                        .chain(field.refused),
                );
            }
        }
        let choices = details::RADIUS_CHOICES
            .iter()
            .chain(&details::COMMODITIES_CHOICES)
            .chain(&details::BEST_TIME_CHOICES);
        let choices = choices
            .chain(&claim::INJURIES_CHOICES)
            .chain(&claim::TOWED_CHOICES)
            .chain(&policy_change::LICENSE_CLASS_CHOICES);
        texts.extend(choices.map(|(_, label)| *label));
        texts.extend(policy_change::CHANGE_KINDS.iter().map(|kind| kind.label));
        texts.extend([
            claim::INSURER_NOT_SURE_LABEL,
            policy_change::NOT_IN_FORCE_UNTIL_CONFIRMED,
            policy_change::LICENSE_NUMBER_BY_PHONE,
            policy_change::EFFECTIVE_DATE_TOO_LATE,
        ]);
        texts.extend(crate::answers::TRANSLATED);
        texts.insert(forms::EMAIL_NOT_ASCII);
        texts.insert(forms::optout::ONE_OF_THEM);
        for schedule in schedules::SCHEDULES {
            texts.extend([schedule.too_many, schedule.bad_header]);
            for field in schedule.columns {
                let limits = [field.min, field.max].into_iter().flatten();
                texts.extend(limits.map(|limit| limit.message));
                texts.extend(
                    [
                        field.missing,
                        field.invalid,
                        field.out_of_range,
                        field.refused,
                    ]
                    .into_iter()
                    .flatten(),
                );
            }
        }
        texts.extend(schedules::LOSS_KINDS.iter().map(|(_, label)| *label));
        texts.extend([
            schedules::LICENSE_NUMBER_REFUSED,
            schedules::ROW_UNREADABLE,
            schedules::UNKNOWN_COLUMN,
            schedules::NOT_A_SCHEDULE,
            schedules::ROW_ERROR,
            schedules::WHOLE_ROW_ERROR,
        ]);
        texts
    }

    #[test]
    fn every_text_of_the_contract_has_its_spanish() {
        let missing: Vec<_> = english_texts()
            .into_iter()
            .filter(|english| text(english).is_none())
            .collect();
        assert!(missing.is_empty(), "no Spanish for: {missing:#?}");
    }

    #[test]
    fn every_entry_is_used_once_and_keeps_its_placeholders() {
        let texts = english_texts();
        let mut seen = BTreeSet::new();
        for (english, spanish) in TEXTS {
            assert!(seen.insert(english), "listed twice: {english:?}");
            assert!(
                texts.contains(english),
                "not a text of the contract: {english:?}"
            );
            assert_ne!(english, spanish, "untranslated: {english:?}");
            assert_eq!(
                english.contains("{field}"),
                spanish.contains("{field}"),
                "{english:?}"
            );
        }
    }
}
